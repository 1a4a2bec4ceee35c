import { Fragment } from 'react';
import './phrase-text.css';

/**
 * Japanese text that breaks lines only between phrases (BudouX's, computed ahead into a table of offsets), so
 * that a word is never split across two lines on a phone. A text without computed breaks shows as it is.
 */
export function PhraseText({ text, breaks }: { text: string; breaks: readonly number[] | undefined }) {
  if (!breaks) return text;
  const parts = [0, ...breaks].map((start, index) => text.slice(start, breaks[index] ?? text.length));
  return (
    <span className="phrases">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
