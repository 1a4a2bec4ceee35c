/*
 * A person's reading (ふりがな, product.md §5.7): what every list of people sorts by. It is stored in one
 * script, hiragana, so that タナカ and たなか are one reading, and so that sorting by code point is gojūon
 * order (あいうえお…; a voiced or small kana comes right after its plain one). No zod here, so that the web
 * build keeps this module out of the schemas chunk: NameKana, the field of adduser and updateuser, and the
 * profile's ふりがな are in profile.ts.
 */

/** Katakana ァ (U+30A1) to ヶ (U+30F6) and ヽヾ sit 0x60 above their hiragana. */
const KATAKANA = /[\u30A1-\u30F6\u30FD\u30FE]/g;

/** What a stored reading may hold: hiragana (ぁ to ゖ, ゝゞ), the long-vowel mark ー, ・ and single spaces. */
const READING = /^[\u3041-\u3096\u309D\u309E\u30FC\u30FB ]+$/;

/** Most characters a reading may have. */
export const NAME_KANA_MAX = 50;

/**
 * The text in hiragana: half-width katakana and full-width spaces first become their usual forms (NFKC),
 * then katakana becomes hiragana. Anything else is left as it is (a search word may be a name or an ID).
 */
export const toHiragana = (text: string): string =>
  text.normalize('NFKC').replace(KATAKANA, (kana) => String.fromCharCode(kana.charCodeAt(0) - 0x60));

/** A reading as it is stored: in hiragana, trimmed, runs of spaces made one space. '' when none. */
export const normaliseReading = (text: string): string => toHiragana(text).trim().replace(/\s+/g, ' ');

/** Is this stored form (normaliseReading's output) a reading? '' (no reading) is not one. */
export const isReading = (normalised: string): boolean => READING.test(normalised);
