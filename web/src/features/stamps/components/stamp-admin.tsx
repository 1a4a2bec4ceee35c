import { Phrases } from '@/components/ui/phrases';
import {
  jaMember,
  STAMP_LABEL_MAX,
  STAMP_SET_NAME_MAX,
  STAMPS_PER_SET_MAX,
  type StampSet,
} from '@enishi/contract';
import { useId, useState, type Dispatch, type FormEvent, type SetStateAction } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { useImagePicker } from '@/lib/use-image-picker';
import { Button } from '@/components/ui/button';
import { CloseIcon } from '@/components/ui/icons';
import { ImagePickButton } from '@/components/ui/image-pick-button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { useAddStampSet, useStampSets, useUpdateStampSet } from '../api/stamp-sets';
import './stamp-admin.css';

const t = jaMember.stampAdmin;

/** /stamps (product.md §12.8): the stamp sets, each to stop or resume, and a form to add a set. */
export function StampAdmin() {
  const sets = useStampSets();
  return (
    <div className="stamp-admin">
      <section aria-labelledby="stamp-admin-sets">
        <h2 id="stamp-admin-sets" className="stamp-admin__heading">
          {t.sets}
        </h2>
        {sets.isPending ? (
          <Spinner label={jaMember.stamps.loading} />
        ) : sets.isError ? (
          <p role="alert">
            <Phrases text={jaMember.stamps.loadFailed} />
          </p>
        ) : (
          <ul className="stamp-admin__sets" role="list">
            {sets.data.sets.map((set) => (
              <SetRow key={set.id} set={set} />
            ))}
          </ul>
        )}
      </section>
      <AddSetForm />
    </div>
  );
}

function SetRow({ set }: { set: StampSet }) {
  const update = useUpdateStampSet();
  function toggle() {
    update.mutate(
      { id: set.id, enabled: !set.enabled },
      {
        onSuccess: () => toastSuccess(t.updated),
        onError: (error) => toast(errorMessage(error)),
      },
    );
  }
  return (
    <li className="stamp-admin__set" data-enabled={set.enabled}>
      <div className="stamp-admin__set-head">
        <p className="stamp-admin__set-name">
          {set.name}
          {set.builtin ? <span className="stamp-admin__tag">{t.builtin}</span> : null}
        </p>
        <p className="stamp-admin__set-meta">
          {t.setCount(set.stamps.length)}・{set.enabled ? t.enabled : t.disabled}
        </p>
      </div>
      <ul className="stamp-admin__preview" role="list">
        {set.stamps.slice(0, 8).map((stamp) => (
          <li key={stamp.id}>
            <img src={stamp.image} alt={stamp.label} width={48} height={48} loading="lazy" />
          </li>
        ))}
      </ul>
      <Button variant="secondary" busy={update.isPending} onClick={toggle}>
        {set.enabled ? t.disable : t.enable}
      </Button>
    </li>
  );
}

type Draft = { image: string; label: string };

function AddSetForm() {
  const add = useAddStampSet();
  const [name, setName] = useState('');
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [error, setError] = useState<string | undefined>();
  const hintId = useId();
  const { reading, pick } = useImagePicker({
    types: ['image/png', 'image/webp'],
    room: STAMPS_PER_SET_MAX - drafts.length,
    onPicked: (picked) => {
      if (picked.overflow) toast(t.tooManyImages);
      setDrafts((current) => [...current, ...picked.images.map((image) => ({ image, label: '' }))]);
    },
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const missing = !name.trim()
      ? t.setNameRequired
      : drafts.length === 0
        ? t.imagesRequired
        : drafts.some((draft) => !draft.label.trim())
          ? t.labelRequired
          : undefined;
    setError(missing);
    if (missing) return;
    add.mutate(
      { name, stamps: drafts },
      {
        onSuccess: () => {
          toastSuccess(t.added);
          setName('');
          setDrafts([]);
        },
        onError: (failure) => setError(errorMessage(failure) || t.addFailed),
      },
    );
  }

  return (
    <form className="stamp-admin__form" onSubmit={submit} noValidate aria-labelledby="stamp-admin-add">
      <h2 id="stamp-admin-add" className="stamp-admin__heading">
        {t.addTitle}
      </h2>
      <TextField
        label={t.setName}
        value={name}
        maxLength={STAMP_SET_NAME_MAX}
        onChange={(event) => setName(event.target.value)}
      />
      <ImagePickButton
        label={t.chooseImages}
        accept="image/png,image/webp"
        disabled={drafts.length >= STAMPS_PER_SET_MAX}
        describedBy={hintId}
        onPick={pick}
      />
      <p id={hintId} className="stamp-admin__hint">
        <Phrases text={t.imageHint} />
      </p>
      {drafts.length > 0 || reading > 0 ? <DraftList drafts={drafts} setDrafts={setDrafts} /> : null}
      {error ? (
        <p className="stamp-admin__error" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" busy={add.isPending || reading > 0}>
        {t.add}
      </Button>
    </form>
  );
}

/** The chosen images of the set being added, each with its label to fill in and a button to drop it. */
function DraftList({ drafts, setDrafts }: { drafts: Draft[]; setDrafts: Dispatch<SetStateAction<Draft[]>> }) {
  return (
    <ul className="stamp-admin__drafts" role="list">
      {drafts.map((draft, index) => (
        <li key={`${index}:${draft.image.length}`} className="stamp-admin__draft">
          <img src={draft.image} alt="" width={64} height={64} />
          <TextField
            label={t.label(index + 1)}
            value={draft.label}
            maxLength={STAMP_LABEL_MAX}
            onChange={(event) =>
              setDrafts((current) =>
                current.map((each, at) => (at === index ? { ...each, label: event.target.value } : each)),
              )
            }
          />
          <button
            type="button"
            className="stamp-admin__remove"
            aria-label={t.removeImage(index + 1)}
            onClick={() => setDrafts((current) => current.filter((_, at) => at !== index))}
          >
            <CloseIcon size={18} />
          </button>
        </li>
      ))}
    </ul>
  );
}
