// U+0000 cannot be stored in a PostgreSQL text column, and a lone surrogate is no character at all: both are
// refused at the edge (HTTP bodies and socket frames) rather than failing, or being changed, in the database.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when some string in a parsed body or frame (a key or a value) holds such a character. */
export function hasUnstorableText(value: unknown): boolean {
  if (typeof value === 'string') return UNSTORABLE.test(value);
  if (Array.isArray(value)) return value.some(hasUnstorableText);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, item]) => UNSTORABLE.test(key) || hasUnstorableText(item));
  }
  return false;
}
