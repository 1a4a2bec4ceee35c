import type { LoginReply, UserRow } from '@enishi/contract';
import type { UserRecord } from '../db/schema.js';

const NO_UNREADS = JSON.stringify({ men: {}, women: {}, staff: {} });

/**
 * A user as the client sees it (contract UserRow): never the password hash or timestamps. `unreads` is the
 * JSON text of their unread message ids (ConversationService.unreadsJson); `imageUrl` the signed URL of
 * their picture (ProfileImageService.url).
 */
export function presentUser(
  user: UserRecord,
  unreads: string = NO_UNREADS,
  imageUrl: string | null = null,
): UserRow {
  return {
    uid: user.id,
    id: user.loginId,
    name: user.name,
    name_kana: user.nameKana,
    role: user.role,
    rank: user.rank,
    introducer: user.introducer,
    image: imageUrl,
    // The original client reads the display name and picture under these names too.
    username: user.name,
    user_image: imageUrl,
    unreads,
  };
}

/** A login that started a session (LoginService): who logged in, the session and the device's token. */
export interface LoggedIn {
  uid: number;
  role: number;
  rank: number;
  name: string;
  session: string;
  device: string;
}

export function presentLogin(login: LoggedIn): LoginReply {
  const { uid, role, rank, name, session, device } = login;
  return { uid, role, rank, name, session, device };
}
