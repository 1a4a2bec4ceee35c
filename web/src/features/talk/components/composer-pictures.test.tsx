// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { ja, jaMember } from '@enishi/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearLocalState } from '@/lib/local-state';
import { currentToasts } from '@/lib/toast';
import { logInAsStaff } from '@/testing/browser-shims';
import { Composer } from './composer';

// A picture that cannot be sent is never dropped in silence (product.md §5): the toast says why, with the limit.
vi.stubGlobal('CSS', { supports: () => true });
beforeEach(() => {
  clearLocalState();
  logInAsStaff();
});
afterEach(cleanup);

function pick(file: File) {
  render(<Composer conversationId={992} replyTo={null} onCancelReply={() => {}} onSend={() => {}} />);
  fireEvent.change(screen.getByLabelText(ja.talk.addImage), { target: { files: [file] } });
}

const sized = (file: File, size: number) => Object.defineProperty(file, 'size', { value: size });
const toasts = () => currentToasts().map((toast) => toast.message);

describe('a picture the comment box cannot take', () => {
  it('of another type: says which types it takes', async () => {
    pick(new File(['GIF89a'], 'anime.gif', { type: 'image/gif' }));
    await waitFor(() => expect(toasts()).toContain(jaMember.images.wrongType('JPEG・PNG')));
  });

  it('too large: says the 5 MB limit', async () => {
    pick(sized(new File(['x'], 'big.jpg', { type: 'image/jpeg' }), 6_000_000));
    await waitFor(() => expect(toasts()).toContain(jaMember.images.tooLarge(5)));
  });

  it('unreadable: says to pick another', async () => {
    // jsdom decodes no picture: a JPEG that cannot be read.
    pick(new File(['not a jpeg'], 'broken.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(toasts()).toContain(jaMember.images.unreadable));
  });
});
