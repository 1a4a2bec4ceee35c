import { LIMITS } from './limits.js';
import { jaIntro } from './ja-intro.js';

/*
 * The application form's rules (product.md §5.8), field by field and without zod, so the intro pages check
 * each field where it is typed without loading the schemas; EntryBody (http.ts) applies the same rules.
 */

export type EntryField = 'name' | 'age' | 'email' | 'tel';
export type EntryType = 'male' | 'female';

/** Full-width digits and symbols become ASCII (１７ → 17); spaces around are dropped. */
export const entryDigits = (value: string): string => value.normalize('NFKC').trim();

/** Youngest applicants: women 20 (the intro copy, product.md §1.7), men 18. */
export const ENTRY_MIN_AGE: Record<EntryType, number> = { female: 20, male: 18 };
export const ENTRY_MAX_AGE = 120;

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const TEL = /^\+?[0-9-]{6,}$/;

/** What is wrong with one field as typed, in Japanese, or null when it is fine. */
export function entryFieldError(field: EntryField, raw: string, type: EntryType): string | null {
  const t = jaIntro;
  switch (field) {
    case 'name': {
      const value = raw.trim();
      if (!value) return t.nameRequired;
      return value.length > LIMITS.nameMax ? t.nameTooLong(LIMITS.nameMax) : null;
    }
    case 'age': {
      const value = entryDigits(raw);
      if (!value) return t.ageRequired;
      if (!/^\d{1,3}$/.test(value) || Number(value) > ENTRY_MAX_AGE) return t.ageInvalid;
      if (Number(value) < ENTRY_MIN_AGE[type]) return type === 'female' ? t.ageUnder20 : t.ageUnder18;
      return null;
    }
    case 'email': {
      const value = raw.trim();
      if (!value) return t.emailRequired;
      if (value.length > LIMITS.emailMax) return t.emailInvalid;
      return EMAIL.test(value) ? null : t.emailInvalid;
    }
    case 'tel': {
      const value = entryDigits(raw);
      if (!value) return t.telRequired;
      if (value.length > LIMITS.telMax) return t.telTooLong(LIMITS.telMax);
      return TEL.test(value) ? null : t.telInvalid;
    }
  }
}
