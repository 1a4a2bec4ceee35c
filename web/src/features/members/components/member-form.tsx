import {
  LIMITS,
  MEN_RANKS,
  ja,
  stripLoginId,
  stripPassword,
  type MemberFormField,
  type MemberKind,
  type UserRow,
  jaMember,
} from '@enishi/contract';
import { useId, useRef, useState, type FormEvent, type ReactNode, type RefObject } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '@/lib/api-client';
import { toast, toastSuccess } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useHandleApplication } from '@/lib/applications';
import { useSaveMember } from '../api/save-member';
import { SelectField } from './select-field';
import { checkMemberForm, type MemberFormErrors, type MemberFormValues } from '../utils/member-form';
import { memberKinds } from '../utils/member-kinds';
import './members.css';
import { Phrases } from '@/components/ui/phrases';

/** The member screens' wording. */
const text = jaMember.members;

const FIELD_ORDER: MemberFormField[] = ['name', 'id', 'pass', 'rank', 'introducer'];

const valuesOf = (user: UserRow | undefined, prefill: URLSearchParams): MemberFormValues => ({
  id: user?.id ?? '',
  // From the applications inbox (会員登録へ): the applicant's name.
  name: user?.name ?? (prefill.get('name') ?? '').slice(0, LIMITS.nameMax),
  pass: '',
  rank: user && user.rank > 0 ? String(user.rank) : '',
  introducer: user?.introducer ?? '',
});

/**
 * The member form of product.md §5 for men, women and staff: name and ID required, password required on add and
 * optional on edit, rank for men. ID and password keep only the characters they allow as they are typed.
 * The whole form is checked with the same schema as the server before it is sent.
 */
export function MemberForm({ kind, user }: { kind: MemberKind; user?: UserRow }) {
  const mode = user ? 'edit' : 'add';
  const [values, setValues] = useState(() => valuesOf(user, new URLSearchParams(window.location.search)));
  const [errors, setErrors] = useState<MemberFormErrors>({});
  const fields = useRef<Fields>({});
  const ids = useId();
  const { save, onSubmit } = useSubmitMember({ kind, user, values, setErrors, fields });

  function change(field: keyof MemberFormValues, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  const hinted = (field: MemberFormField, hint: ReactNode, control: ReactNode) => (
    <div className="member-form__field">
      {control}
      <p id={`${ids}-${field}-hint`} className="member-form__hint">
        {typeof hint === 'string' ? <Phrases text={hint} /> : hint}
      </p>
    </div>
  );
  const describedBy = (field: MemberFormField, hint = true) =>
    [hint && `${ids}-${field}-hint`, errors[field] && `${ids}-${field}-error`].filter(Boolean).join(' ') ||
    undefined;

  return (
    <form className="member-form" noValidate onSubmit={onSubmit}>
      <TextField
        ref={(element) => {
          fields.current.name = element;
        }}
        id={`${ids}-name`}
        label={text.fields.name}
        mark={text.required}
        name="name"
        autoComplete="off"
        maxLength={LIMITS.nameMax}
        value={values.name}
        error={errors.name}
        aria-required="true"
        aria-describedby={describedBy('name', false)}
        onChange={(event) => change('name', event.target.value)}
      />
      {hinted(
        'id',
        text.hints.id,
        <TextField
          ref={(element) => {
            fields.current.id = element;
          }}
          id={`${ids}-id`}
          label={text.fields.id}
          mark={text.required}
          name="login-id"
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          inputMode="email"
          maxLength={LIMITS.loginIdMax}
          value={values.id}
          error={errors.id}
          aria-required="true"
          aria-describedby={describedBy('id')}
          onChange={(event) => change('id', stripLoginId(event.target.value))}
        />,
      )}
      {hinted(
        'pass',
        mode === 'edit' ? `${text.hints.passEdit}（${text.hints.pass}）` : text.hints.pass,
        <PasswordField
          id={`${ids}-pass`}
          required={mode === 'add'}
          value={values.pass}
          error={errors.pass}
          describedBy={describedBy('pass')}
          inputRef={(element) => {
            fields.current.pass = element;
          }}
          onChange={(value) => change('pass', value)}
        />,
      )}
      {kind === 'men' ? (
        <RankField
          id={`${ids}-rank`}
          value={values.rank}
          error={errors.rank}
          selectRef={(element) => {
            fields.current.rank = element;
          }}
          onChange={(value) => change('rank', value)}
        />
      ) : null}
      {kind !== 'staff'
        ? hinted(
            'introducer',
            text.hints.introducer,
            <TextField
              ref={(element) => {
                fields.current.introducer = element;
              }}
              id={`${ids}-introducer`}
              label={text.fields.introducer}
              name="introducer"
              autoComplete="off"
              maxLength={LIMITS.introducerMax}
              value={values.introducer}
              error={errors.introducer}
              aria-describedby={describedBy('introducer')}
              onChange={(event) => change('introducer', event.target.value)}
            />,
          )
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
    save.mutate(
      user ? { ...data, uid: user.uid, pass: data.pass ?? '' } : { ...data, pass: data.pass ?? '' },
      {
        onSuccess: (reply) => {
          toastSuccess(user ? text.updated(data.name) : text.added(data.name));
          const created = reply.rows[0]?.uid;
          // Made from an application: it is handled now, and remembers the member.
          if (application > 0 && created) handleApplication.mutate({ id: application, member_uid: created });
          void navigate(listPath, { replace: true });
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

/** ランク (men only): a select of the ranks, required. */
function RankField({
  id,
  value,
  error,
  selectRef,
  onChange,
}: {
  id: string;
  value: string;
  error: string | undefined;
  selectRef: (element: HTMLSelectElement | null) => void;
  onChange: (value: string) => void;
}) {
  return (
    <SelectField
      id={id}
      label={text.fields.rank}
      mark={text.required}
      name="rank"
      value={value}
      error={error}
      selectRef={selectRef}
      aria-required="true"
      onChange={(event) => onChange(event.target.value)}
    >
      <option value="">{text.rankPlaceholder}</option>
      {MEN_RANKS.map((rank) => (
        <option key={rank} value={rank}>
          {ja.ranks[rank]}
        </option>
      ))}
    </SelectField>
  );
}

/** パスワード with 表示する: only the characters a password allows stay as it is typed. */
function PasswordField({
  id,
  required,
  value,
  error,
  describedBy,
  inputRef,
  onChange,
}: {
  id: string;
  required: boolean;
  value: string;
  error: string | undefined;
  describedBy: string | undefined;
  inputRef: (element: HTMLInputElement | null) => void;
  onChange: (value: string) => void;
}) {
  const [showPassword, setShowPassword] = useState(false);
  return (
    <>
      <TextField
        ref={inputRef}
        id={id}
        label={text.fields.pass}
        mark={required ? text.required : undefined}
        name="new-password"
        type={showPassword ? 'text' : 'password'}
        autoComplete="new-password"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        maxLength={LIMITS.passwordMax}
        value={value}
        error={error}
        aria-required={required ? 'true' : undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(stripPassword(event.target.value))}
      />
      <label className="member-form__toggle">
        <input
          type="checkbox"
          checked={showPassword}
          onChange={(event) => setShowPassword(event.target.checked)}
        />
        {text.showPassword}
      </label>
    </>
  );
}
