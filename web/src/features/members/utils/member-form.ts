import { MemberForm, type MemberFormField } from '@enishi/contract';
import type { z } from 'zod';

/** What the form fields hold (as typed, after stripping). */
export type MemberFormValues = {
  id: string;
  name: string;
  /** The reading as typed; sent in either kana script, the contract keeps it in hiragana. */
  name_kana: string;
  pass: string;
  rank: string;
  introducer: string;
};
export type MemberFormErrors = Partial<Record<MemberFormField, string>>;

export type MemberFormCheck =
  | { ok: true; data: z.output<typeof MemberForm.add> | z.output<typeof MemberForm.edit> }
  | { ok: false; errors: MemberFormErrors };

/**
 * Checks the form with the contract's MemberForm schema, the same one the server applies to adduser and
 * updateuser (product.md §5), and gives the first message of each field that fails.
 */
export function checkMemberForm(
  mode: 'add' | 'edit',
  role: number,
  values: MemberFormValues,
): MemberFormCheck {
  const result = MemberForm[mode].safeParse({ ...values, role });
  if (result.success) return { ok: true, data: result.data };
  const errors: MemberFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as MemberFormField | undefined;
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
