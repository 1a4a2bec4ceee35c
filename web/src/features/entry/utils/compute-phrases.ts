/*
 * Phrase breaks for the Japanese of the public pages (/enter, /intro/*), computed with BudouX ahead of time
 * (`web/scripts/write-phrases.ts` writes them to ../phrases.ts): the pages break lines only between phrases without
 * shipping the parser. Only that script and the test that checks the data is up to date import this file; the
 * app never does (BudouX would then be in the bundle).
 */
import { ja, jaMember, jaSecondStep } from '@enishi/contract';
import { loadDefaultJapaneseParser } from 'budoux';

/** Every text of a catalogue section, arrays and nested objects included (functions are left out). */
function textsOf(section: unknown): string[] {
  if (typeof section === 'string') return section.trim() ? [section] : [];
  if (Array.isArray(section)) return section.flatMap(textsOf);
  if (section && typeof section === 'object') return Object.values(section).flatMap(textsOf);
  return [];
}

/**
 * Each text and where a line may break in it (offsets between phrases); texts of one phrase are left out.
 * `public`: the public pages' texts (ja.enter, ja.intro); `member`: every other text of the catalogue (the second
 * step's words, shown on the member's security screen, included), for the member area's screens (web/src/lib/phrases-member.ts, loaded only with the screens that show them).
 */
export function computePhrases(which: 'public' | 'member' = 'public'): Record<string, number[]> {
  const parser = loadDefaultJapaneseParser();
  const result: Record<string, number[]> = {};
  const { enter, intro, ...rest } = ja;
  const texts =
    which === 'public'
      ? [...textsOf(enter), ...textsOf(intro)]
      : [...textsOf(rest), ...textsOf(jaMember), ...textsOf(jaSecondStep)];
  for (const text of [...new Set(texts)].sort()) {
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

export function phrasesModule(
  phrases: Record<string, number[]>,
  which: 'public' | 'member' = 'public',
): string {
  const lines = Object.entries(phrases).map(
    ([text, breaks]) => `  ${JSON.stringify(text)}: [${breaks.join(', ')}],`,
  );
  const from = which === 'public' ? 'ja.enter and ja.intro' : 'the rest of ja, jaMember and jaSecondStep';
  return [
    ...(which === 'member' ? ['/* eslint-disable max-lines -- generated data, one line per text */'] : []),
    `// Written by web/scripts/write-phrases.ts (BudouX) from ${from}: do not edit by hand.`,
    '/** Where a line may break in each text of the public pages: offsets between its phrases. */',
    'export const PHRASE_BREAKS: Readonly<Record<string, readonly number[]>> = {',
    ...lines,
    '};',
    '',
  ].join('\n');
}
