import {
  PROFILE_FIELD_NAMES,
  ProfilePatch,
  firstErrorMessage,
  type Lookups,
  type Profile,
  type ProfileField,
  jaMember,
} from '@enishi/contract';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { useProfileChanges } from '../api/profile';
import { changedFields, choicesOf, fieldsByGroup } from '../utils/profile-fields';
import { ProfileFieldControl } from './profile-field';

const p = jaMember.profile;
const OPEN_GROUPS = new Set(['basics', 'sales']);

/**
 * The profile of a member for staff, grouped (basics, appearance, lifestyle, work, preferences, sales notes),
 * with selects and checkboxes from /api/lookups. Only changed fields are sent, checked first with the very
 * schema the server uses; the first field in error takes the focus.
 */
export function ProfileForm({
  uid,
  role,
  stored,
  lookups,
}: {
  uid: number;
  role: number;
  stored: Profile;
  lookups: Lookups;
}) {
  const [draft, setDraft] = useState(stored);
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({});
  const { save } = useProfileChanges(uid);

  function change(field: ProfileField, value: unknown) {
    setDraft((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const patch = changedFields(stored, draft);
    const checked = ProfilePatch.safeParse(patch);
    if (!checked.success) {
      const field = checked.error.issues[0]?.path[0] as ProfileField | undefined;
      const message = firstErrorMessage(checked.error);
      toast(message);
      if (field && PROFILE_FIELD_NAMES.includes(field)) {
        setErrors({ [field]: message });
        const element = document.getElementById(`profile-${field}`);
        element?.closest('details')?.setAttribute('open', '');
        element?.focus();
      }
      return;
    }
    setErrors({});
    save.mutate(checked.data, {
      onSuccess: (reply) => {
        setDraft(reply.profile);
        toast(p.saved);
      },
      onError: (error) => toast(errorMessage(error)),
    });
  }

  return (
    <form className="profile-form" noValidate onSubmit={onSubmit} aria-label={p.title}>
      {fieldsByGroup(role).map(({ group, fields }) => (
        <details key={group} className="profile-group" open={OPEN_GROUPS.has(group)}>
          <summary className="profile-group__title">{p.groups[group]}</summary>
          <div className="profile-group__fields">
            {fields.map((field) => (
              <ProfileFieldControl
                key={field}
                field={field}
                value={draft[field]}
                choices={choicesOf(field, lookups)}
                error={errors[field]}
                onChange={(value) => change(field, value)}
              />
            ))}
          </div>
        </details>
      ))}
      <Button type="submit" block busy={save.isPending} className="profile-form__submit">
        {save.isPending ? jaMember.members.saving : p.save}
      </Button>
    </form>
  );
}
