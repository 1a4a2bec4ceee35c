import { PROFILE_PHOTOS_MAX, type ProfilePhoto, jaMember } from '@enishi/contract';
import { useId, type ChangeEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { pickImageFiles, readAsDataUrl, rejectedImagesText } from '@/lib/image-files';
import { toast } from '@/lib/toast';
import { ImagePickButton } from '@/components/ui/image-pick-button';
import { useConfirm } from '@/components/ui/confirm-dialog';
import { ChevronLeftIcon, ChevronRightIcon, TrashIcon } from '@/components/ui/icons';
import { useProfileChanges } from '../api/profile';
import { Phrases } from '@/components/ui/phrases';

const t = jaMember.profile.photos;
const PHOTO_TYPES = ['image/jpeg', 'image/png'] as const;

/** One photo with its buttons: move earlier, delete, move later (each named after the photo). */
function PhotoItem({
  src,
  alt,
  first,
  last,
  busy,
  onMove,
  onRemove,
}: {
  src: string;
  alt: string;
  first: boolean;
  last: boolean;
  busy: boolean;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  return (
    <li className="profile-photos__item">
      <img src={src} alt={alt} className="profile-photos__image" loading="lazy" />
      <div className="profile-photos__actions">
        <button
          type="button"
          className="profile-photos__button"
          aria-label={`${alt} ${t.moveUp}`}
          disabled={first || busy}
          onClick={() => onMove(-1)}
        >
          <ChevronLeftIcon size={18} />
        </button>
        <button
          type="button"
          className="profile-photos__button profile-photos__button--danger"
          aria-label={`${alt} ${t.delete}`}
          disabled={busy}
          onClick={onRemove}
        >
          <TrashIcon size={18} />
        </button>
        <button
          type="button"
          className="profile-photos__button"
          aria-label={`${alt} ${t.moveDown}`}
          disabled={last || busy}
          onClick={() => onMove(1)}
        >
          <ChevronRightIcon size={18} />
        </button>
      </div>
    </li>
  );
}

/** A member's photos: add (JPEG or PNG, cleaned by the server), move earlier or later, delete. */
export function ProfilePhotos({ uid, name, photos }: { uid: number; name: string; photos: ProfilePhoto[] }) {
  const { photos: change } = useProfileChanges(uid);
  const confirm = useConfirm();
  const room = PROFILE_PHOTOS_MAX - photos.length;
  const countId = useId();
  const fail = (error: unknown) => toast(errorMessage(error));

  async function onPick(event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    const { accepted, skipped } = pickImageFiles(files, PHOTO_TYPES, room);
    // What was left out is said with the limit it broke (product.md §5).
    if (skipped) toast(rejectedImagesText(files, PHOTO_TYPES) ?? t.tooMany(PROFILE_PHOTOS_MAX));
    for (const file of accepted) {
      try {
        await change.mutateAsync({ kind: 'add', image: await readAsDataUrl(file) });
      } catch (error) {
        fail(error);
        return;
      }
    }
  }

  function move(index: number, by: -1 | 1) {
    const ids = photos.map((photo) => photo.id);
    const [moved] = ids.splice(index, 1);
    ids.splice(index + by, 0, moved!);
    change.mutate({ kind: 'order', ids }, { onError: fail });
  }

  async function remove(id: string) {
    if (!(await confirm({ message: t.deleteConfirm, confirmLabel: t.delete }))) return;
    change.mutate({ kind: 'delete', id }, { onError: fail });
  }

  return (
    <section className="profile-photos" aria-labelledby="profile-photos-title" aria-busy={change.isPending}>
      <div className="profile-photos__head">
        <h3 id="profile-photos-title" className="profile-section__title">
          {t.title}
          <span id={countId} className="profile-photos__count">
            {photos.length}/{PROFILE_PHOTOS_MAX}
          </span>
        </h3>
        {/* Full: the count (5/5) says why 写真を追加 is greyed out. */}
        <ImagePickButton
          label={t.add}
          disabled={room <= 0 || change.isPending}
          describedBy={room <= 0 ? countId : undefined}
          onPick={onPick}
        />
      </div>
      {photos.length === 0 ? (
        <p className="profile-history__empty">
          <Phrases text={t.empty} />
        </p>
      ) : null}
      <ol className="thumb-grid profile-photos__grid">
        {photos.map((photo, index) => (
          <PhotoItem
            key={photo.id}
            src={photo.url}
            alt={t.alt(name, index + 1)}
            first={index === 0}
            last={index === photos.length - 1}
            busy={change.isPending}
            onMove={(by) => move(index, by)}
            onRemove={() => void remove(photo.id)}
          />
        ))}
      </ol>
    </section>
  );
}
