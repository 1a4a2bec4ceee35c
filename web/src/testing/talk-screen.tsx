import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ja } from '@enishi/contract';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { forgetUser } from '@/lib/auth';
import { getChatStatus } from '@/lib/chat/events';
import { clearHistory } from '@/lib/chat/history';
import { startChatSocket, stopChatSocket } from '@/lib/chat/socket';
import { ConfirmProvider } from '@/components/ui/confirm-dialog';
import { ToastViewport } from '@/components/ui/toast-viewport';
import { TalkScreen } from '@/features/talk/components/talk-screen';
import { actAsBrowserAt, deskTalk, logInAsStaff } from './browser-shims';
import { startClubServer, type ClubServer } from './club-server';

/*
 * The talk screen against a stand-in club server (club-server.ts), for the talk screen's tests. Each test logs
 * in to an empty talk on a server that has heard nothing yet, and logs out after it (the socket closed, nothing
 * of the user left on the device), so no test sees another's socket or messages.
 */

/** Registers the suite's hooks; the server is there from the first test on. */
export function talkScreenSuite(): { server: () => ClubServer } {
  let server: ClubServer | undefined;
  beforeAll(async () => {
    server = await startClubServer(deskTalk, []);
    actAsBrowserAt(server.origin);
    startChatSocket();
  });
  beforeEach(async () => {
    server!.messages.splice(0);
    server!.frames.splice(0);
    logInAsStaff();
    await untilLive();
  });
  afterEach(async () => {
    cleanup();
    forgetUser();
    // forgetUser does not wait for the stored talks to go.
    await clearHistory();
  });
  afterAll(async () => {
    stopChatSocket();
    await server?.close();
  });
  return { server: () => server! };
}

export const untilLive = () => waitFor(() => expect(getChatStatus()).toBe('live'), { timeout: 10_000 });

/** The desk's talk drawn, and its timeline once there. */
export function openTalk() {
  drawTalk();
  return screen.findByRole('log', { name: ja.talk.timeline });
}

export function drawTalk() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ConfirmProvider>
        <MemoryRouter initialEntries={['/talk/1']}>
          <TalkScreen conversationId={deskTalk.id} />
        </MemoryRouter>
        <ToastViewport />
      </ConfirmProvider>
    </QueryClientProvider>,
  );
}

/** Writes `text` in the comment box and taps 送信. */
export function send(text: string) {
  const box = screen.getByRole('textbox', { name: ja.talk.composer });
  // The comment box is controlled: a change event carries the typed text.
  fireEvent.change(box, { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: ja.talk.send }));
}
