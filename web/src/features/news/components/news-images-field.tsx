import { NEWS_IMAGES_MAX, jaMember } from '@enishi/contract';
import { useId, useState, type Dispatch, type SetStateAction } from 'react';
import { toast } from '@/lib/toast';
import { useImagePicker } from '@/lib/use-image-picker';
import { Button } from '@/components/ui/button';
import { TrashIcon } from '@/components/ui/icons';
import { ImagePickButton } from '@/components/ui/image-pick-button';
import { Phrases } from '@/components/ui/phrases';

/** An image of the form: one the item already has (its URL) or a new one (its data URL). */
export type FormImage = { key: string; src: string };

let nextKey = 0;
export const toFormImage = (src: string): FormImage => ({ key: `image-${(nextKey += 1)}`, src });

/**
 * 画像: those of the item, each with a checkbox for 画像を削除, and 画像を追加 while there is room. A greyed-out
 * button is described by the line that says why (the limit; nothing checked).
 */
export function NewsImagesField({
  images,
  setImages,
}: {
  images: FormImage[];
  setImages: Dispatch<SetStateAction<FormImage[]>>;
}) {
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const ids = useId();
  const picker = useImagePicker({
    types: ['image/jpeg', 'image/png'],
    room: NEWS_IMAGES_MAX - images.length,
    onPicked: (picked) => {
      if (picked.skipped) toast(jaMember.news.skippedImages);
      setImages((current) => [...current, ...picked.images.map(toFormImage)].slice(0, NEWS_IMAGES_MAX));
    },
  });

  function toggle(key: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }

  function deleteSelected() {
    setImages((current) => current.filter((image) => !selected.has(image.key)));
    setSelected(new Set());
  }

  return (
    <fieldset className="news-form__images-field plain-fieldset">
      <legend className="field__label">{jaMember.news.images}</legend>
      <p id={`${ids}-hint`} className="news-admin__hint">
        <Phrases text={jaMember.news.imageHint} />
      </p>
      {images.length > 0 ? (
        <ul className="news-form__images thumb-grid" role="list">
          {images.map((image, index) => (
            <li key={image.key} className="news-form__image">
              <label className="news-form__image-choice">
                <input type="checkbox" checked={selected.has(image.key)} onChange={() => toggle(image.key)} />
                <span className="visually-hidden">{jaMember.news.selectImage(index + 1)}</span>
                <img src={image.src} alt="" />
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="news-admin__actions">
        <ImagePickButton
          label={jaMember.news.addImage}
          className="news-form__pick"
          disabled={images.length >= NEWS_IMAGES_MAX}
          describedBy={`${ids}-hint`}
          onPick={picker.pick}
        />
        {images.length > 0 ? (
          <Button
            variant="quiet"
            icon={<TrashIcon size={20} />}
            onClick={deleteSelected}
            disabled={selected.size === 0}
            aria-describedby={selected.size === 0 ? `${ids}-why` : undefined}
          >
            {jaMember.news.deleteImage}
          </Button>
        ) : null}
      </div>
      {images.length > 0 && selected.size === 0 ? (
        <p id={`${ids}-why`} className="news-admin__hint">
          <Phrases text={jaMember.news.deleteImageDisabled} />
        </p>
      ) : null}
    </fieldset>
  );
}
