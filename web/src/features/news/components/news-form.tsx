import {
  NEWS_BODY_MAX,
  NEWS_IMAGES_MAX,
  NEWS_TITLE_MAX,
  ja,
  type ContentGroup,
  type NewsRow,
  jaMember,
  jaIntro,
} from '@enishi/contract';
import { useEffect, useId, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { useImagePicker } from '@/lib/use-image-picker';
import { Button } from '@/components/ui/button';
import { TrashIcon } from '@/components/ui/icons';
import { ImagePickButton } from '@/components/ui/image-pick-button';
import { LinkedText } from '@/components/ui/linked-text';
import { Spinner } from '@/components/ui/spinner';
import { TextArea } from '@/components/ui/text-area';
import { TextField } from '@/components/ui/text-field';
import { useNews } from '../api/get-news';
import { useSaveNews } from '../api/save-news';
import { savedText, typeOf } from '../utils/group';
import './news-admin.css';
import { Phrases } from '@/components/ui/phrases';

/** An image of the form: one the item already has (its URL) or a new one (its data URL). */
type FormImage = { key: string; src: string };

let nextKey = 0;
const toFormImage = (src: string): FormImage => ({ key: `image-${(nextKey += 1)}`, src });

/** /news/{men,women}/add and /edit?id: the form, then a confirm screen, then save. */
export function NewsForm({ group, id }: { group: ContentGroup; id?: number | undefined }) {
  if (id === undefined) return <NewsEditor group={group} />;
  if (id <= 0)
    return (
      <p className="news-admin__empty">
        <Phrases text={jaMember.news.notFound} />
      </p>
    );
  return <NewsEditLoader group={group} id={id} />;
}

function NewsEditLoader({ group, id }: { group: ContentGroup; id: number }) {
  const news = useNews({ id });
  if (news.isPending) return <Spinner label={ja.app.loading} />;
  const item = news.data?.rows[0];
  if (!item)
    return (
      <p className="news-admin__empty">
        <Phrases text={news.isError ? errorMessage(news.error) : jaMember.news.notFound} />
      </p>
    );
  return <NewsEditor key={item.id} group={group} item={item} />;
}

function NewsEditor({ group, item }: { group: ContentGroup; item?: NewsRow }) {
  const save = useSaveNews();
  const navigate = useNavigate();
  const [title, setTitle] = useState(item?.title ?? '');
  const [body, setBody] = useState(item?.body ?? '');
  const [images, setImages] = useState<FormImage[]>(() => (item?.image ?? []).map(toFormImage));
  const [errors, setErrors] = useState<{ title?: string; body?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);
  const bodyInput = useRef<HTMLTextAreaElement>(null);

  function toConfirm() {
    const found = {
      title: title.trim() ? undefined : jaMember.news.titleRequired,
      body: body.trim() ? undefined : jaMember.news.bodyRequired,
    };
    setErrors(found);
    if (found.title) return titleInput.current?.focus();
    if (found.body) return bodyInput.current?.focus();
    setConfirming(true);
  }

  function onSave() {
    save.mutate(
      {
        id: item?.id,
        type: typeOf(group),
        title: title.trim(),
        body: body.trim(),
        images: images.map((image) => image.src),
      },
      {
        onSuccess: () => {
          toastSuccess(savedText(group));
          void navigate(`/news/${group}/list`);
        },
        onError: (error) => {
          toast(errorMessage(error));
          setConfirming(false);
        },
      },
    );
  }

  if (confirming) {
    return (
      <NewsConfirm
        title={title.trim()}
        body={body.trim()}
        images={images}
        saving={save.isPending}
        onFix={() => setConfirming(false)}
        onSave={onSave}
      />
    );
  }

  return (
    <form
      className="news-admin news-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        toConfirm();
      }}
    >
      <TextField
        ref={titleInput}
        label={jaMember.news.titleLabel}
        mark={jaIntro.required}
        value={title}
        maxLength={NEWS_TITLE_MAX}
        error={errors.title}
        onChange={(event) => setTitle(event.target.value)}
      />
      <TextArea
        ref={bodyInput}
        label={jaMember.news.bodyLabel}
        mark={jaIntro.required}
        className="news-form__body"
        value={body}
        maxLength={NEWS_BODY_MAX}
        rows={8}
        error={errors.body}
        onChange={(event) => setBody(event.target.value)}
      />

      <NewsImagesField images={images} setImages={setImages} />

      <Button type="submit" block>
        {jaMember.news.confirm}
      </Button>
    </form>
  );
}

/** 確認: what will be saved, then 修正 back to the form or 保存. */
function NewsConfirm({
  title,
  body,
  images,
  saving,
  onFix,
  onSave,
}: {
  title: string;
  body: string;
  images: FormImage[];
  saving: boolean;
  onFix: () => void;
  onSave: () => void;
}) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="news-admin news-confirm" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1} className="news-admin__subtitle">
        {jaMember.news.confirmTitle}
      </h2>
      <p className="news-admin__lead">
        <Phrases text={jaMember.news.confirmLead} />
      </p>
      <dl className="news-confirm__fields">
        <dt>{jaMember.news.titleLabel}</dt>
        <dd>{title}</dd>
        <dt>{jaMember.news.bodyLabel}</dt>
        <dd className="news-confirm__body">
          <LinkedText text={body} />
        </dd>
        <dt>{jaMember.news.images}</dt>
        <dd>
          {images.length === 0 ? (
            jaMember.news.noImages
          ) : (
            <ul className="news-form__images thumb-grid" role="list">
              {images.map((image, index) => (
                <li key={image.key} className="news-form__image">
                  <img src={image.src} alt={jaMember.news.imageAlt(title, index + 1)} />
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <div className="news-admin__actions">
        <Button variant="quiet" onClick={onFix} disabled={saving}>
          {jaMember.news.fix}
        </Button>
        <Button onClick={onSave} busy={saving} disabled={saving}>
          {jaMember.news.save}
        </Button>
      </div>
    </section>
  );
}

/**
 * 画像: those of the item, each with a checkbox for 画像を削除, and 画像を追加 while there is room. A greyed-out
 * button is described by the line that says why (the limit; nothing checked).
 */
function NewsImagesField({
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
