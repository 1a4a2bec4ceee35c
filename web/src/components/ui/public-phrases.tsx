import { PhraseText } from './phrase-text';
import { hashText, unpackPhrases } from '@/lib/phrase-pack';
import { PACKED_PHRASES } from '@/lib/phrases-public';

const BREAKS = unpackPhrases(PACKED_PHRASES);

/** The public pages' Japanese, broken between phrases (the public table only: their first load stays small). */
export function PublicPhrases({ text }: { text: string }) {
  const breaks = BREAKS.get(hashText(text));
  // A text outside the table that shares a hash with one in it keeps its own breaks (none).
  return <PhraseText text={text} breaks={breaks?.every((at) => at < text.length) ? breaks : undefined} />;
}
