/*
 * Phrase breaks for the catalogue's Japanese (the public pages, the member area, the staff-only screens), computed
 * with BudouX ahead of time (`web/scripts/write-phrases.ts` writes them to `web/src/lib/phrases-public.ts`,
 * `phrases-member.ts` and `phrases-staff.ts`): the pages break lines only between phrases without shipping the
 * parser. Only that script and the test that checks the data is up to date import this file; the
 * app never does (BudouX would then be in the bundle).
 */
import { ja, jaMember, jaSecondStep, jaIntro } from '@enishi/contract';
import { loadDefaultJapaneseParser } from 'budoux';
import { packPhrases } from '@/lib/phrase-pack';

/** Every text of a catalogue section, arrays and nested objects included (functions are left out). */
function textsOf(section: unknown): string[] {
  if (typeof section === 'string') return section.trim() ? [section] : [];
  if (Array.isArray(section)) return section.flatMap(textsOf);
  if (section && typeof section === 'object') return Object.values(section).flatMap(textsOf);
  return [];
}

export type PhraseAudience = 'public' | 'member' | 'staff';

/** The sections of jaMember that only staff screens show: their breaks load only for staff (phrases-staff.ts). */
export const STAFF_SECTIONS = [
  'shell',
  'table',
  'board',
  'members',
  'audit',
  'groups',
  'banners',
  'broadcast',
  'desk',
  'reports',
  'calendar',
  'deskTalk',
  'memberImport',
] as const satisfies readonly (keyof typeof jaMember)[];

/** The texts each table covers (a text in both the member's and the staff's sections goes to the member's). */
export function textsFor(which: PhraseAudience): string[] {
  const { enter, login, ...rest } = ja;
  if (which === 'public') return [...textsOf(enter), ...textsOf(jaIntro), ...textsOf(login)];
  const staffOnly = new Set<string>(STAFF_SECTIONS);
  const sections = Object.entries(jaMember);
  const member = [
    ...textsOf(rest),
    ...textsOf(jaSecondStep),
    ...textsOf(sections.filter(([name]) => !staffOnly.has(name)).map(([, section]) => section)),
  ];
  if (which === 'member') return member;
  const memberTexts = new Set(member);
  return textsOf(sections.filter(([name]) => staffOnly.has(name)).map(([, section]) => section)).filter(
    (text) => !memberTexts.has(text),
  );
}

/**
 * Each text and where a line may break in it (offsets between phrases); texts of one phrase are left out.
 * `public`: the public pages' texts (ja.enter, jaIntro, ja.login); `member`: every other text of the catalogue but the
 * staff-only sections (the second step's words included), for the member area (web/src/lib/phrases-member.ts);
 * `staff`: the staff-only sections (STAFF_SECTIONS), for staff screens (web/src/lib/phrases-staff.ts). Both load
 * when a screen first shows such a text (lib/phrase-breaks.ts), never with a first load.
 */
export function computePhrases(which: PhraseAudience = 'public'): Record<string, number[]> {
  const parser = loadDefaultJapaneseParser();
  const result: Record<string, number[]> = {};
  for (const text of [...new Set(textsFor(which))].sort()) {
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

const SOURCES: Record<PhraseAudience, string> = {
  public: 'ja.enter, jaIntro and ja.login',
  member: 'the rest of ja, jaSecondStep and the members’ sections of jaMember',
  staff: 'the staff-only sections of jaMember (STAFF_SECTIONS)',
};

/** A table packed by text hash (lib/phrase-pack.ts): about half the bytes of one keyed by the text. */
export function phrasesModule(phrases: Record<string, number[]>, which: PhraseAudience = 'public'): string {
  const header = `// Written by web/scripts/write-phrases.ts (BudouX) from ${SOURCES[which]}: do not edit by hand.`;
  const packed = packPhrases(phrases);
  const screens = which === 'public' ? 'public pages' : `${which} screens`;
  return [
    ...(packed.split('\n').length > 390
      ? ['/* eslint-disable max-lines -- generated data, one line per text */']
      : []),
    header,
    `/** Where a line may break in each text of the ${screens}, packed (lib/phrase-pack.ts). */`,
    `export const PACKED_PHRASES = \`${packed}\`;`,
    '',
  ].join('\n');
}
