import { usePhraseBreaks } from '@/lib/phrase-breaks';
import { PhraseText } from './phrase-text';

/**
 * A catalogue text of the member area or the staff screens, broken between phrases (BudouX, computed ahead
 * into lib/phrases-member.ts and lib/phrases-staff.ts, loaded with the first screen that shows one,
 * lib/phrase-breaks.ts). Text that is not in the catalogue (news, profiles, messages, names) breaks by the
 * browser's own phrase rules (`word-break: auto-phrase` in styles/base.css): give it to this only when it is a
 * catalogue text.
 */
export function Phrases({ text }: { text: string }) {
  return <PhraseText text={text} breaks={usePhraseBreaks(text)} />;
}
