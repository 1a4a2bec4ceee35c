import {
  LIMITS,
  MEN_RANKS,
  NAME_KANA_MAX,
  ja,
  stripLoginId,
  stripPassword,
  type MemberFormField,
  jaMember,
} from '@enishi/contract';
import { useState, type ReactNode } from 'react';
import { TextField } from '@/components/ui/text-field';
import { Phrases } from '@/components/ui/phrases';
import type { MemberFormErrors } from '../utils/member-form';
import { SelectField } from './select-field';

/** The member form's fields (product.md §5), and their hints. */

/** The member screens' wording. */
const text = jaMember.members;

/** A field with its hint under it, and what describes each field: its hint and its error. */
export function useHints(ids: string, errors: MemberFormErrors) {
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
  return { hinted, describedBy };
}

/** What a text input of the form is given: its value and error, its hint's id, where its element goes. */
type InputFieldProps = {
  id: string;
  value: string;
  error: string | undefined;
  describedBy: string | undefined;
  inputRef: (element: HTMLInputElement | null) => void;
  onChange: (value: string) => void;
};

/** 名前: required. */
export function NameField({ id, value, error, describedBy, inputRef, onChange }: InputFieldProps) {
  return (
    <TextField
      ref={inputRef}
      id={id}
      label={text.fields.name}
      mark={text.required}
      name="name"
      autoComplete="off"
      maxLength={LIMITS.nameMax}
      value={value}
      error={error}
      aria-required="true"
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/**
 * ふりがな: optional, in hiragana or katakana (stored in hiragana); lists of people are in its あいうえお order
 * (product.md §5.7).
 */
export function NameKanaField({ id, value, error, describedBy, inputRef, onChange }: InputFieldProps) {
  return (
    <TextField
      ref={inputRef}
      id={id}
      label={text.fields.name_kana}
      name="name_kana"
      autoComplete="off"
      maxLength={NAME_KANA_MAX}
      value={value}
      error={error}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** 紹介者 (men and women): optional. */
export function IntroducerField({ id, value, error, describedBy, inputRef, onChange }: InputFieldProps) {
  return (
    <TextField
      ref={inputRef}
      id={id}
      label={text.fields.introducer}
      name="introducer"
      autoComplete="off"
      maxLength={LIMITS.introducerMax}
      value={value}
      error={error}
      aria-describedby={describedBy}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** ログインID: required; only the characters an ID allows stay as it is typed. */
export function LoginIdField({ id, value, error, describedBy, inputRef, onChange }: InputFieldProps) {
  return (
    <TextField
      ref={inputRef}
      id={id}
      label={text.fields.id}
      mark={text.required}
      name="login-id"
      autoComplete="off"
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      inputMode="email"
      maxLength={LIMITS.loginIdMax}
      value={value}
      error={error}
      aria-required="true"
      aria-describedby={describedBy}
      onChange={(event) => onChange(stripLoginId(event.target.value))}
    />
  );
}

/** ランク (men only): a select of the ranks, required. */
export function RankField({
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
export function PasswordField({
  id,
  required,
  value,
  error,
  describedBy,
  inputRef,
  onChange,
}: InputFieldProps & { required: boolean }) {
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
