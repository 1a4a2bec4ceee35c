import { PhraseText } from '@/components/ui/phrase-text';
import { PHRASE_BREAKS } from '../phrases';

/** The public pages' Japanese, broken between phrases (the public table only: their first load stays small). */
export function Phrases({ text }: { text: string }) {
  return <PhraseText text={text} breaks={PHRASE_BREAKS[text]} />;
}
