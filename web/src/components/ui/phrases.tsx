import { PHRASE_BREAKS } from '@/lib/phrases-member';
import { PhraseText } from './phrase-text';

/**
 * The member area's Japanese from the catalogue, broken between phrases (BudouX, computed ahead into
 * lib/phrases-member.ts, about 7 KB gzip, loaded with the screens that use it). Text that is not in the
 * catalogue (news, profiles, messages) breaks by the browser's own phrase rules (`word-break: auto-phrase`
 * in styles/base.css).
 */
export function Phrases({ text }: { text: string }) {
  return <PhraseText text={text} table={PHRASE_BREAKS} />;
}
