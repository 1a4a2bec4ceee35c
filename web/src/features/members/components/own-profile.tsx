import {
  PROFILE_FIELDS,
  ProfilePatch,
  firstErrorMessage,
  ja,
  lookupLabel,
  type Lookups,
  type Profile,
  type ProfileField,
  type ProfileReply,
  jaMember,
} from '@enishi/contract';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Phrases } from '@/components/ui/phrases';
import { Spinner } from '@/components/ui/spinner';
import { useLookups } from '../api/lookups';
import { useProfile, useProfileChanges } from '../api/profile';
import { changedFields, choicesOf, fieldsByGroup } from '../utils/profile-fields';
import { ProfileFieldControl } from './profile-field';
import './profiles.css';

const p = jaMember.profile;

/** POST /api/profile/editable: the fields the owner lets members change (product.md §19.10). */
export function useEditableFields() {
  return useQuery({
    queryKey: ['profile-editable'],
    queryFn: () => api('profile/editable', {}),
    staleTime: 60_000,
  });
}

/** A recorded value as text: labels of codes, numbers, dates and text; 未設定 when nothing is recorded. */
function shown(field: ProfileField, value: Profile[ProfileField], lookups: Lookups): string {
  const spec = PROFILE_FIELDS[field];
  if (spec.kind === 'code') return lookupLabel(choicesOf(field, lookups), value as number | null) || p.unset;
  if (spec.kind === 'codes') {
    const labels = (value as number[]).map((code) => lookupLabel(choicesOf(field, lookups), code));
    return labels.filter(Boolean).join('、') || p.unset;
  }
  return value === null || value === '' ? p.unset : String(value);
}

/**
 * Mypage → プロフィール (product.md §19.10): what the club recorded about the member (never the sales notes),
 * with the photos; the fields the owner made editable are a form, the rest read-only.
 */
export function OwnProfile({ uid }: { uid: number }) {
  const profile = useProfile(uid);
  const lookups = useLookups();
  const editable = useEditableFields();
  if (profile.isPending || lookups.isPending || editable.isPending) return <Spinner label={ja.app.loading} />;
  if (profile.isError || lookups.isError || editable.isError) {
    return (
      <div className="notice-box" role="alert">
        <p>
          <Phrases text={profile.isError ? errorMessage(profile.error) : p.loadFailed} />
        </p>
        <Button variant="quiet" onClick={() => void profile.refetch()}>
          {ja.app.reload}
        </Button>
      </div>
    );
  }
  return (
    <OwnProfileView
      data={profile.data}
      lookups={lookups.data as Lookups}
      editable={new Set(editable.data.fields as ProfileField[])}
    />
  );
}

/** The member's photos, as the club keeps them (changed by the staff only). */
function OwnPhotos({ data }: { data: ProfileReply }) {
  return (
    <section className="own-profile__photos" aria-label={p.photos.title}>
      {data.photos.length === 0 ? (
        <p className="notice-box">
          <Phrases text={p.own.noPhotos} />
        </p>
      ) : (
        <ul className="own-profile__photo-list" role="list">
          {data.photos.map((photo, index) => (
            <li key={photo.id}>
              <img src={photo.url} alt={p.photos.alt(data.name, index + 1)} loading="lazy" decoding="async" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A field the owner made editable: its control (which carries the label), the term hidden but for readers. */
function EditableRow({
  field,
  value,
  lookups,
  error,
  onChange,
}: {
  field: ProfileField;
  value: Profile[ProfileField];
  lookups: Lookups;
  error: string | undefined;
  onChange: (value: Profile[ProfileField]) => void;
}) {
  return (
    <div className="own-profile__row own-profile__row--edit">
      <dt className="visually-hidden">{p.fields[field]}</dt>
      <dd>
        <ProfileFieldControl
          field={field}
          value={value}
          choices={choicesOf(field, lookups)}
          error={error}
          onChange={onChange}
        />
      </dd>
    </div>
  );
}

/** The draft of the editable fields, their errors, and 保存: only what changed, checked as the server checks it. */
function useOwnProfileForm(data: ProfileReply) {
  const [draft, setDraft] = useState(data.profile);
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({});
  const { save } = useProfileChanges(data.uid);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const patch = changedFields(data.profile, draft);
    if (Object.keys(patch).length === 0) {
      toast(p.own.nothingChanged);
      return;
    }
    const checked = ProfilePatch.safeParse(patch);
    if (!checked.success) {
      const field = checked.error.issues[0]?.path[0] as ProfileField | undefined;
      const message = firstErrorMessage(checked.error);
      if (field) setErrors({ [field]: message });
      toast(message);
      document.getElementById(`profile-${field}`)?.focus();
      return;
    }
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: (reply) => {
        setDraft(reply.profile);
        toastSuccess(p.saved);
      },
      onError: (error) => toast(errorMessage(error)),
    });
  }

  return { draft, setDraft, errors, save, onSubmit };
}

function OwnProfileView({
  data,
  lookups,
  editable,
}: {
  data: ProfileReply;
  lookups: Lookups;
  editable: Set<ProfileField>;
}) {
  const { draft, setDraft, errors, save, onSubmit } = useOwnProfileForm(data);
  const groups = fieldsByGroup(data.role).filter(({ group }) => group !== 'sales');

  return (
    <form className="own-profile" noValidate onSubmit={onSubmit} aria-label={p.own.title}>
      <p className="own-profile__lead">
        <Phrases text={p.own.lead} />
        <Phrases text={editable.size > 0 ? p.own.editableNote : p.own.readOnlyNote} />
      </p>
      <OwnPhotos data={data} />
      {groups.map(({ group, fields }) => (
        <section key={group} className="profile-group own-profile__group" aria-labelledby={`own-${group}`}>
          <h2 id={`own-${group}`} className="profile-group__title">
            {p.groups[group]}
          </h2>
          <dl className="own-profile__rows">
            {fields.map((field) =>
              editable.has(field) ? (
                <EditableRow
                  key={field}
                  field={field}
                  value={draft[field]}
                  lookups={lookups}
                  error={errors[field]}
                  onChange={(value) => setDraft((current) => ({ ...current, [field]: value }))}
                />
              ) : (
                <div key={field} className="own-profile__row">
                  <dt>{p.fields[field]}</dt>
                  <dd>{shown(field, data.profile[field], lookups)}</dd>
                </div>
              ),
            )}
          </dl>
        </section>
      ))}
      {editable.size > 0 ? (
        <Button type="submit" block busy={save.isPending}>
          {save.isPending ? jaMember.members.saving : p.save}
        </Button>
      ) : null}
    </form>
  );
}
