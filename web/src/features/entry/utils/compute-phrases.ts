/*
 * Phrase breaks for the Japanese of the public pages (/enter, /intro/*), computed with BudouX ahead of time
 * (`web/scripts/write-phrases.ts` writes them to ../phrases.ts): the pages break lines only between phrases without
 * shipping the parser. Only that script and the test that checks the data is up to date import this file; the
 * app never does (BudouX would then be in the bundle).
 */
import { ja } from '@enishi/contract';
import { loadDefaultJapaneseParser } from 'budoux';

/** Every text of a catalogue section, arrays and nested objects included (functions are left out). */
function textsOf(section: unknown): string[] {
  if (typeof section === 'string') return section.trim() ? [section] : [];
  if (Array.isArray(section)) return section.flatMap(textsOf);
  if (section && typeof section === 'object') return Object.values(section).flatMap(textsOf);
  return [];
}

/** Each text and where a line may break in it (offsets between phrases); texts of one phrase are left out. */
export function computePhrases(): Record<string, number[]> {
  const parser = loadDefaultJapaneseParser();
  const result: Record<string, number[]> = {};
  for (const text of [...new Set([...textsOf(ja.enter), ...textsOf(ja.intro)])].sort()) {
    const breaks: number[] = [];
    let at = 0;
    for (const phrase of parser.parse(text).slice(0, -1)) {
      at += phrase.length;
      breaks.push(at);
    }
    if (breaks.length > 0) result[text] = breaks;
  }
  return result;
}

export function phrasesModule(phrases: Record<string, number[]>): string {
  const lines = Object.entries(phrases).map(
    ([text, breaks]) => `  ${JSON.stringify(text)}: [${breaks.join(', ')}],`,
  );
  return [
    '// Written by web/scripts/write-phrases.ts (BudouX) from ja.enter and ja.intro: do not edit by hand.',
    '/** Where a line may break in each text of the public pages: offsets between its phrases. */',
    'export const PHRASE_BREAKS: Readonly<Record<string, readonly number[]>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}
