import {
  NEWS_BODY_MAX,
  NEWS_TITLE_MAX,
  ja,
  type ContentGroup,
  type NewsRow,
  jaMember,
  jaIntro,
} from '@enishi/contract';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { LinkedText } from '@/components/ui/linked-text';
import { Spinner } from '@/components/ui/spinner';
import { TextArea } from '@/components/ui/text-area';
import { TextField } from '@/components/ui/text-field';
import { useNews } from '../api/get-news';
import { useSaveNews } from '../api/save-news';
import { savedText, typeOf } from '../utils/group';
import { NewsImagesField, toFormImage, type FormImage } from './news-images-field';
import './news-admin.css';
import { Phrases } from '@/components/ui/phrases';

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

/** The title, body and images being written, their errors, and 確認: both required, the first missing focused. */
function useNewsDraft(item: NewsRow | undefined) {
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

  return {
    title,
    setTitle,
    body,
    setBody,
    images,
    setImages,
    errors,
    confirming,
    setConfirming,
    titleInput,
    bodyInput,
    toConfirm,
  };
}

function NewsEditor({ group, item }: { group: ContentGroup; item?: NewsRow }) {
  const save = useSaveNews();
  const navigate = useNavigate();
  const draft = useNewsDraft(item);
  const { title, setTitle, body, setBody, images, setImages, errors, confirming, setConfirming } = draft;
  const { titleInput, bodyInput, toConfirm } = draft;

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
