import { LIMITS, type MemberFormField, type MemberKind, type UserRow, jaMember } from '@enishi/contract';
import { useId, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { useHandleApplication } from '@/lib/applications';
import { useSaveMember } from '../api/save-member';
import {
  IntroducerField,
  LoginIdField,
  NameField,
  NameKanaField,
  PasswordField,
  RankField,
  useHints,
} from './member-form-fields';
import { checkMemberForm, type MemberFormErrors, type MemberFormValues } from '../utils/member-form';
import { memberKinds } from '../utils/member-kinds';
import './members.css';

/** The member screens' wording. */
const text = jaMember.members;

const FIELD_ORDER: MemberFormField[] = ['name', 'name_kana', 'id', 'pass', 'rank', 'introducer'];

const valuesOf = (user: UserRow | undefined, prefill: URLSearchParams): MemberFormValues => ({
  id: user?.id ?? '',
  // From the applications inbox (会員登録へ): the applicant's name.
  name: user?.name ?? (prefill.get('name') ?? '').slice(0, LIMITS.nameMax),
  name_kana: user?.name_kana ?? '',
  pass: '',
  rank: user && user.rank > 0 ? String(user.rank) : '',
  introducer: user?.introducer ?? '',
});

/**
 * The form's values and errors (a field's error goes as it is changed), and its elements by field, so that the
 * first field in error can take the focus.
 */
function useMemberValues(user: UserRow | undefined) {
  const [values, setValues] = useState(() => valuesOf(user, new URLSearchParams(window.location.search)));
  const [errors, setErrors] = useState<MemberFormErrors>({});
  const fields = useRef<Fields>({});

  function change(field: keyof MemberFormValues, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }
  const fieldRef = (field: MemberFormField) => (element: HTMLInputElement | HTMLSelectElement | null) => {
    fields.current[field] = element;
  };

  return { values, errors, setErrors, change, fields, fieldRef };
}

/**
 * The member form of product.md §5 for men, women and staff: name and ID required, password required on add and
 * optional on edit, rank for men. ID and password keep only the characters they allow as they are typed.
 * The whole form is checked with the same schema as the server before it is sent.
 */
export function MemberForm({ kind, user }: { kind: MemberKind; user?: UserRow }) {
  const mode = user ? 'edit' : 'add';
  const { values, errors, setErrors, change, fields, fieldRef } = useMemberValues(user);
  const ids = useId();
  const { save, onSubmit } = useSubmitMember({ kind, user, values, setErrors, fields });

  const { hinted, describedBy } = useHints(ids, errors);
  /** What a hinted text field is given: its value and error, its descriptions, where its element goes. */
  const input = (field: 'name_kana' | 'id' | 'introducer') => ({
    id: `${ids}-${field}`,
    value: values[field],
    error: errors[field],
    describedBy: describedBy(field),
    inputRef: fieldRef(field),
    onChange: (value: string) => change(field, value),
  });

  return (
    <form className="member-form" noValidate onSubmit={onSubmit}>
      <NameField
        id={`${ids}-name`}
        value={values.name}
        error={errors.name}
        describedBy={describedBy('name', false)}
        inputRef={fieldRef('name')}
        onChange={(value) => change('name', value)}
      />
      {hinted('name_kana', text.hints.name_kana, <NameKanaField {...input('name_kana')} />)}
      {hinted('id', text.hints.id, <LoginIdField {...input('id')} />)}
      {hinted(
        'pass',
        mode === 'edit' ? `${text.hints.passEdit}（${text.hints.pass}）` : text.hints.pass,
        <PasswordField
          id={`${ids}-pass`}
          required={mode === 'add'}
          value={values.pass}
          error={errors.pass}
          describedBy={describedBy('pass')}
          inputRef={fieldRef('pass')}
          onChange={(value) => change('pass', value)}
        />,
      )}
      {kind === 'men' ? (
        <RankField
          id={`${ids}-rank`}
          value={values.rank}
          error={errors.rank}
          selectRef={fieldRef('rank')}
          onChange={(value) => change('rank', value)}
        />
      ) : null}
      {kind !== 'staff'
        ? hinted('introducer', text.hints.introducer, <IntroducerField {...input('introducer')} />)
        : null}
      <Button type="submit" block busy={save.isPending} className="member-form__submit">
        {save.isPending ? text.saving : mode === 'edit' ? text.submitEdit : text.submitAdd}
      </Button>
    </form>
  );
}

type Fields = Partial<Record<MemberFormField, HTMLInputElement | HTMLSelectElement | null>>;

/** 登録/更新: the form checked like the server checks it, then saved; the first field in error takes the focus. */
function useSubmitMember({
  kind,
  user,
  values,
  setErrors,
  fields,
}: {
  kind: MemberKind;
  user: UserRow | undefined;
  values: MemberFormValues;
  setErrors: (errors: MemberFormErrors) => void;
  fields: RefObject<Fields>;
}) {
  const mode = user ? 'edit' : 'add';
  const { listPath } = memberKinds[kind];
  const role = user?.role ?? memberKinds[kind].role;
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const save = useSaveMember();
  const handleApplication = useHandleApplication();
  const [params] = useSearchParams();
  const application =
    !user && /^\d{1,10}$/.test(params.get('application') ?? '') ? Number(params.get('application')) : 0;

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (save.isPending) return;
    const checked = checkMemberForm(mode, role, values);
    if (!checked.ok) {
      setErrors(checked.errors);
      toast(text.invalid);
      const first = FIELD_ORDER.find((field) => checked.errors[field]);
      if (first) fields.current[first]?.focus();
      return;
    }
    setErrors({});
    const { data } = checked;
    // A reading left as it was is not sent (absent keeps it): the profile beside this form may have changed it.
    if (user && values.name_kana === (user.name_kana ?? '')) delete data.name_kana;
    save.mutate(
      user ? { ...data, uid: user.uid, pass: data.pass ?? '' } : { ...data, pass: data.pass ?? '' },
      {
        onSuccess: (reply) => {
          toastSuccess(user ? text.updated(data.name) : text.added(data.name));
          const created = reply.rows[0]?.uid;
          // Made from an application: it is handled now, and remembers the member.
          if (application > 0 && created) handleApplication.mutate({ id: application, member_uid: created });
          // In the table's side panel the list is already here, its filters in the address (product.md §2.8).
          if (pathname !== listPath) void navigate(listPath, { replace: true });
        },
        onError: (error) => {
          const message = errorMessage(error);
          toast(message);
          if (message === text.errors.idTaken) {
            setErrors({ id: message });
            fields.current.id?.focus();
          }
        },
      },
    );
  }

  return { save, onSubmit };
}
