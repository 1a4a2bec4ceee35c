import type { ConversationsReply } from '@enishi/contract';
import { can } from '@enishi/contract';
import { redirect } from './redirect';
import { api } from '@/lib/api-client';
import { getSession } from '@/lib/session';

/**
 * /talkrooms/staff for a member: they have one talk with the staff desk, so it opens at once (the list would
 * hold a single row). Staff see the list of staff rooms. If the list cannot be read (offline), it shows.
 */
export async function openDeskTalk(): Promise<null> {
  const session = getSession();
  if (!session || can(session, 'desk.use')) return null;
  let reply: ConversationsReply;
  try {
    reply = await api('conversations', { type: 'staff', search: '', page: 0 }, { keepSessionOn401: true });
  } catch {
    return null;
  }
  const desk = reply.rows[0];
  if (reply.rows.length === 1 && desk) throw redirect(`/talk/staff/${desk.id}`);
  return null;
}
