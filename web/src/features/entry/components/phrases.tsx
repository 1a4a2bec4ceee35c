import { Fragment } from 'react';
import { PHRASE_BREAKS } from '../phrases';
import './phrases.css';

/**
 * Japanese text that breaks lines only between phrases (BudouX's, computed ahead: phrases.ts), so that a word
 * is never split across two lines on a phone. A text without computed breaks shows as it is.
 */
export function Phrases({ text }: { text: string }) {
  const breaks = PHRASE_BREAKS[text];
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
