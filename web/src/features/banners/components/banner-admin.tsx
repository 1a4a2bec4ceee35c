import { BannerUrl, BANNER_URL_MAX, CONTENT_TYPE, ja, type ContentGroup, jaMember } from '@enishi/contract';
import {
  useEffect,
  useId,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
  type RefObject,
} from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { useImagePicker } from '@/lib/use-image-picker';
import { Button } from '@/components/ui/button';
import { ImageIcon } from '@/components/ui/icons';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { BannerChangeError, useApplyBannerChanges, type BannerChanges } from '../api/apply-banner-changes';
import { useBanners } from '../api/get-banners';
import { BannerConfirm } from './banner-confirm';
import './banner-admin.css';
import { Phrases } from '@/components/ui/phrases';

const title = (group: ContentGroup) => (group === 'men' ? jaMember.banners.men : jaMember.banners.women);
const addFailed = (group: ContentGroup) =>
  group === 'men' ? jaMember.banners.addFailedMen : jaMember.banners.addFailedWomen;

/** /managead (product.md §2, §4): the men's and the women's banners, each section on its own. */
export function BannerAdmin() {
  return (
    <div className="banner-admin">
      <BannerSection group="men" />
      <BannerSection group="women" />
    </div>
  );
}

/**
 * Runs a confirmed change: success is announced and `done` clears the section; a failure is announced and the
 * app goes home (product.md §8).
 */
function useRunChanges(group: ContentGroup, done: () => void) {
  const apply = useApplyBannerChanges();
  const navigate = useNavigate();
  function run(changes: BannerChanges) {
    apply.mutate(changes, {
      onSuccess: ({ added, removed }) => {
        if (added) toastSuccess(jaMember.banners.added);
        if (removed > 0) toastSuccess(jaMember.banners.deleted);
        done();
      },
      onError: (error) => {
        if (error instanceof BannerChangeError && error.added) toastSuccess(jaMember.banners.added);
        toast(
          error instanceof BannerChangeError && error.step === 'delete'
            ? jaMember.banners.deleteFailed
            : addFailed(group),
        );
        void navigate('/');
      },
    });
  }
  return { apply, run };
}

/**
 * One group's banners: those shown now (each can be marked for deletion) and a new one to add (link URL and
 * image). 確認 appears only when there is something to confirm; the confirm step shows what will happen.
 * Success is announced here; a failure is announced and the app goes home (product.md §8).
 */
function BannerSection({ group }: { group: ContentGroup }) {
  const type = CONTENT_TYPE[group];
  const banners = useBanners(type);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | undefined>();
  const [image, setImage] = useState<string | null>(null);
  const [remove, setRemove] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState<BannerChanges | null>(null);
  const headingId = useId();
  const confirmHeading = useRef<HTMLHeadingElement>(null);
  const urlInput = useRef<HTMLInputElement>(null);

  const rows = banners.data?.rows ?? [];
  const removing = rows.filter((row) => remove.has(row.id));
  const canAdd = url.trim().length > 0 && image !== null;
  const hasChanges = canAdd || removing.length > 0;

  useEffect(() => {
    if (confirming) confirmHeading.current?.focus();
  }, [confirming]);
  const { apply, run } = useRunChanges(group, () => {
    setUrl('');
    setImage(null);
    setRemove(new Set());
    setConfirming(null);
  });

  function toConfirm() {
    let add: BannerChanges['add'] = null;
    if (canAdd) {
      const parsed = BannerUrl.safeParse(url);
      if (!parsed.success) {
        setUrlError(jaMember.banners.badUrl);
        urlInput.current?.focus();
        return;
      }
      add = { url: parsed.data, image: image! };
    }
    setUrlError(undefined);
    setConfirming({ type, add, remove: removing.map((row) => row.id) });
  }

  return (
    <section className={`paper-card banner-section banner-section--${group}`} aria-labelledby={headingId}>
      <BannerHeader group={group} headingId={headingId} />

      {confirming ? (
        <BannerConfirm
          changes={confirming}
          removing={rows.filter((row) => confirming.remove.includes(row.id))}
          headingRef={confirmHeading}
          busy={apply.isPending}
          onBack={() => setConfirming(null)}
          onRun={() => run(confirming)}
        />
      ) : (
        <>
          <CurrentBanners banners={banners} remove={remove} setRemove={setRemove} />

          <NewBanner
            group={group}
            url={url}
            onUrl={setUrl}
            urlError={urlError}
            urlInput={urlInput}
            image={image}
            onImage={setImage}
          />

          {hasChanges ? (
            <Button block onClick={toConfirm} aria-label={`${jaMember.banners.confirm}（${title(group)}）`}>
              {jaMember.banners.confirm}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}

/** A section's title and the note on image sizes. */
function BannerHeader({ group, headingId }: { group: ContentGroup; headingId: string }) {
  return (
    <header className="banner-section__header">
      <h2 id={headingId} className="banner-section__title">
        {title(group)}
      </h2>
      <p className="banner-section__note">
        <Phrases text={jaMember.banners.sizeNote} />
      </p>
    </header>
  );
}

/** 新しいバナー: its link URL and its image. */
function NewBanner({
  group,
  url,
  onUrl,
  urlError,
  urlInput,
  image,
  onImage,
}: {
  group: ContentGroup;
  url: string;
  onUrl: (url: string) => void;
  urlError: string | undefined;
  urlInput: RefObject<HTMLInputElement | null>;
  image: string | null;
  onImage: (image: string | null) => void;
}) {
  return (
    <div className="banner-section__block">
      <h3 className="banner-section__subtitle">{jaMember.banners.addTitle}</h3>
      <TextField
        ref={urlInput}
        label={jaMember.banners.url}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={jaMember.banners.urlPlaceholder}
        maxLength={BANNER_URL_MAX}
        value={url}
        error={urlError}
        onChange={(event) => onUrl(event.target.value)}
      />
      <NewBannerImage group={group} image={image} onImage={onImage} />
    </div>
  );
}

/** 現在のバナー: each shown banner with a checkbox to mark it for deletion. */
function CurrentBanners({
  banners,
  remove,
  setRemove,
}: {
  banners: ReturnType<typeof useBanners>;
  remove: ReadonlySet<number>;
  setRemove: Dispatch<SetStateAction<Set<number>>>;
}) {
  const rows = banners.data?.rows ?? [];
  return (
    <div className="banner-section__block">
      <h3 className="banner-section__subtitle">{jaMember.banners.current}</h3>
      {banners.isPending ? (
        <Spinner label={ja.app.loading} />
      ) : banners.isError ? (
        <p className="banner-section__empty">
          <Phrases text={errorMessage(banners.error)} />
        </p>
      ) : rows.length === 0 ? (
        <p className="banner-section__empty">
          <Phrases text={jaMember.banners.none} />
        </p>
      ) : (
        <ul className="banner-section__list" role="list">
          {rows.map((row, index) => (
            <li key={row.id} className="banner-section__item">
              <img src={row.image} alt={jaMember.banners.alt(index + 1)} className="banner-section__image" />
              <p className="banner-section__url">
                <span className="visually-hidden">{jaMember.banners.link}</span>
                {row.url}
              </p>
              <label className="banner-section__remove">
                <input
                  type="checkbox"
                  checked={remove.has(row.id)}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    setRemove((current) => {
                      const next = new Set(current);
                      if (checked) next.add(row.id);
                      else next.delete(row.id);
                      return next;
                    });
                  }}
                />
                {jaMember.banners.markDelete(index + 1)}
              </label>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The new banner's image: one JPEG, PNG or WebP, shown once picked. */
function NewBannerImage({
  group,
  image,
  onImage,
}: {
  group: ContentGroup;
  image: string | null;
  onImage: (image: string) => void;
}) {
  const picker = useImagePicker({
    types: ['image/jpeg', 'image/png', 'image/webp'],
    room: 1,
    onPicked: ({ images, skipped }) => {
      if (skipped || !images[0]) toast(jaMember.banners.badImage);
      else onImage(images[0]);
    },
  });
  return (
    <div className="banner-section__picker">
      <span className="field__label">{jaMember.banners.image}</span>
      <p className="banner-section__hint">
        <Phrases text={jaMember.banners.imageHint} />
      </p>
      {image ? <img src={image} alt="" className="banner-section__preview" /> : null}
      <label className="btn btn--secondary banner-section__pick">
        <ImageIcon size={20} />
        <span className="btn__label">{jaMember.banners.chooseImage}</span>
        <input
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-label={`${jaMember.banners.chooseImage}（${title(group)}）`}
          className="visually-hidden"
          onChange={(event) => void picker.pick(event)}
        />
      </label>
    </div>
  );
}
