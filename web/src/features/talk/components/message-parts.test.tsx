// @vitest-environment jsdom
import { ja, type ReplyRef } from '@enishi/contract';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ReplyQuote } from './message-parts';

afterEach(cleanup);

const quoted = (fields: Partial<ReplyRef>): ReplyRef => ({
  id: 7,
  message: '',
  own: false,
  name: '山田太郎',
  role: 101,
  image: [],
  ...fields,
});

describe('the quote of a replied-to message (product.md §12.8)', () => {
  it('names a stamp by its words, not as a picture or nothing', () => {
    render(
      <ReplyQuote
        reply={quoted({ image: ['/media/stamp/a?e=1&s=x'], stamp: { id: 3, label: 'ありがとう' } })}
      />,
    );
    expect(screen.getByText(ja.talk.stampQuote('ありがとう'))).toBeTruthy();
    expect(screen.queryByText(ja.talk.image)).toBeNull();
  });

  it('says 画像 for pictures alone, and shows the text of a text', () => {
    const { rerender } = render(<ReplyQuote reply={quoted({ image: ['/media/x?e=1&s=x'] })} />);
    expect(screen.getByText(ja.talk.image)).toBeTruthy();
    rerender(<ReplyQuote reply={quoted({ message: '明日の件です' })} />);
    expect(screen.getByText('明日の件です')).toBeTruthy();
  });
});
