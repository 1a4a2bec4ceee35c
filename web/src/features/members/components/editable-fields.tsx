import { MEMBER_EDITABLE_CANDIDATES, PROFILE_FIELDS, PROFILE_GROUPS, ja, jaMember } from '@enishi/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useEditableFields } from './own-profile';
import './profiles.css';
import { Phrases } from '@/components/ui/phrases';

const p = jaMember.profile;

/**
 * /staff/profile-fields (the owner and admin, product.md §19.10): which profile fields members may change on
 * their own profile; every other field stays read-only for them. Sales notes are never offered.
 */
export function EditableFields() {
  const editable = useEditableFields();
  if (editable.isPending) return <Spinner label={ja.app.loading} />;
  if (editable.isError) {
    return (
      <p className="notice-box" role="alert">
        <Phrases text={errorMessage(editable.error)} />
      </p>
    );
  }
  return <EditableFieldsForm stored={editable.data.fields} />;
}

function EditableFieldsForm({ stored }: { stored: string[] }) {
  const [chosen, setChosen] = useState(() => new Set(stored));
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (fields: string[]) => api('profile/editable/update', { fields }),
    onSuccess: (reply) => {
      queryClient.setQueryData(['profile-editable'], reply);
      toastSuccess(p.editable.saved);
    },
    onError: (error) => toast(errorMessage(error)),
  });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!save.isPending) save.mutate([...chosen]);
  }

  return (
    <form className="own-profile" onSubmit={onSubmit} aria-label={p.editable.title}>
      <p className="own-profile__lead">
        <Phrases text={p.editable.lead} />
      </p>
      {chosen.size === 0 ? (
        <p className="notice-box">
          <Phrases text={p.editable.none} />
        </p>
      ) : null}
      {PROFILE_GROUPS.filter((group) => group !== 'sales').map((group) => (
        <fieldset key={group} className="plain-fieldset profile-group own-profile__group">
          <legend className="profile-group__title">{p.groups[group]}</legend>
          <div className="profile-codes__items">
            {MEMBER_EDITABLE_CANDIDATES.filter((field) => PROFILE_FIELDS[field].group === group).map(
              (field) => (
                <label key={field} className="profile-codes__item">
                  <input
                    type="checkbox"
                    name={field}
                    checked={chosen.has(field)}
                    onChange={(event) =>
                      setChosen((current) => {
                        const next = new Set(current);
                        if (event.target.checked) next.add(field);
                        else next.delete(field);
                        return next;
                      })
                    }
                  />
                  <span>{p.fields[field]}</span>
                </label>
              ),
            )}
          </div>
        </fieldset>
      ))}
      <Button type="submit" block busy={save.isPending}>
        {p.editable.save}
      </Button>
    </form>
  );
}
