import {
  NEWS_BODY_MAX,
  NEWS_IMAGES_MAX,
  NEWS_TITLE_MAX,
  ja,
  type ContentGroup,
  type NewsRow,
} from '@enishi/contract';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { pickImageFiles, readAsDataUrl } from '@/lib/image-files';
import { toast } from '@/lib/toast';
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

/** An image of the form: one the item already has (its URL) or a new one (its data URL). */
type FormImage = { key: string; src: string };

let nextKey = 0;
const toFormImage = (src: string): FormImage => ({ key: `image-${(nextKey += 1)}`, src });

/** /news/{men,women}/add and /edit?id: the form, then a confirm screen, then save. */
export function NewsForm({ group, id }: { group: ContentGroup; id?: number | undefined }) {
  if (id === undefined) return <NewsEditor group={group} />;
  if (id <= 0) return <p className="news-admin__empty">{ja.news.notFound}</p>;
  return <NewsEditLoader group={group} id={id} />;
}

function NewsEditLoader({ group, id }: { group: ContentGroup; id: number }) {
  const news = useNews({ id });
  if (news.isPending) return <Spinner label={ja.app.loading} />;
  const item = news.data?.rows[0];
  if (!item)
    return <p className="news-admin__empty">{news.isError ? errorMessage(news.error) : ja.news.notFound}</p>;
  return <NewsEditor key={item.id} group={group} item={item} />;
}

function NewsEditor({ group, item }: { group: ContentGroup; item?: NewsRow }) {
  const save = useSaveNews();
  const navigate = useNavigate();
  const [title, setTitle] = useState(item?.title ?? '');
  const [body, setBody] = useState(item?.body ?? '');
  const [images, setImages] = useState<FormImage[]>(() => (item?.image ?? []).map(toFormImage));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [errors, setErrors] = useState<{ title?: string; body?: string }>({});
  const [confirming, setConfirming] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);
  const bodyInput = useRef<HTMLTextAreaElement>(null);
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const bodyId = useId();

  useEffect(() => {
    if (confirming) confirmHeading.current?.focus();
  }, [confirming]);

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const files = [...(input.files ?? [])];
    input.value = '';
    const { accepted, skipped } = pickImageFiles(
      files,
      ['image/jpeg', 'image/png'],
      NEWS_IMAGES_MAX - images.length,
    );
    if (skipped) toast(ja.news.skippedImages);
    const added = await Promise.all(accepted.map((file) => readAsDataUrl(file).catch(() => null)));
    const usable = added.filter((src): src is string => src !== null).map(toFormImage);
    setImages((current) => [...current, ...usable].slice(0, NEWS_IMAGES_MAX));
  }

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

  function toConfirm() {
    const found = {
      title: title.trim() ? undefined : ja.news.titleRequired,
      body: body.trim() ? undefined : ja.news.bodyRequired,
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
          toast(savedText(group));
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
      <section className="news-admin news-confirm" aria-labelledby={`${bodyId}-confirm`}>
        <h2 id={`${bodyId}-confirm`} ref={confirmHeading} tabIndex={-1} className="news-admin__subtitle">
          {ja.news.confirmTitle}
        </h2>
        <p className="news-admin__lead">{ja.news.confirmLead}</p>
        <dl className="news-confirm__fields">
          <dt>{ja.news.titleLabel}</dt>
          <dd>{title.trim()}</dd>
          <dt>{ja.news.bodyLabel}</dt>
          <dd className="news-confirm__body">
            <LinkedText text={body.trim()} />
          </dd>
          <dt>{ja.news.images}</dt>
          <dd>
            {images.length === 0 ? (
              ja.news.noImages
            ) : (
              <ul className="news-form__images" role="list">
                {images.map((image, index) => (
                  <li key={image.key} className="news-form__image">
                    <img src={image.src} alt={ja.news.imageAlt(title.trim(), index + 1)} />
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
        <div className="news-admin__actions">
          <Button variant="quiet" onClick={() => setConfirming(false)} disabled={save.isPending}>
            {ja.news.fix}
          </Button>
          <Button onClick={onSave} busy={save.isPending} disabled={save.isPending}>
            {ja.news.save}
          </Button>
        </div>
      </section>
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
        label={ja.news.titleLabel}
        mark={ja.intro.required}
        value={title}
        maxLength={NEWS_TITLE_MAX}
        error={errors.title}
        onChange={(event) => setTitle(event.target.value)}
      />
      <TextArea
        ref={bodyInput}
        label={ja.news.bodyLabel}
        mark={ja.intro.required}
        className="news-form__body"
        value={body}
        maxLength={NEWS_BODY_MAX}
        rows={8}
        error={errors.body}
        onChange={(event) => setBody(event.target.value)}
      />

      <fieldset className="news-form__images-field">
        <legend className="field__label">{ja.news.images}</legend>
        <p className="news-admin__hint">{ja.news.imageHint}</p>
        {images.length > 0 ? (
          <ul className="news-form__images" role="list">
            {images.map((image, index) => (
              <li key={image.key} className="news-form__image">
                <label className="news-form__image-choice">
                  <input
                    type="checkbox"
                    checked={selected.has(image.key)}
                    onChange={() => toggle(image.key)}
                  />
                  <span className="visually-hidden">{ja.news.selectImage(index + 1)}</span>
                  <img src={image.src} alt="" />
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <div className="news-admin__actions">
          <ImagePickButton
            label={ja.news.addImage}
            className="news-form__pick"
            disabled={images.length >= NEWS_IMAGES_MAX}
            onPick={onPick}
          />
          <Button
            variant="quiet"
            icon={<TrashIcon size={20} />}
            onClick={deleteSelected}
            disabled={selected.size === 0}
          >
            {ja.news.deleteImage}
          </Button>
        </div>
      </fieldset>

      <Button type="submit" block>
        {ja.news.confirm}
      </Button>
    </form>
  );
}
