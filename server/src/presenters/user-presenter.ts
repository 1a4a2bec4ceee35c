import type { LoginReply, UserRow } from '@enishi/contract';
import type { UserRecord } from '../db/schema.js';
import type { LoggedIn } from '../services/login-service.js';

// Unread counts arrive with conversations; until then every member has none.
const NO_UNREADS = JSON.stringify({ men: {}, women: {}, staff: {} });

/** A user as the client sees it (contract UserRow): never the password hash or timestamps. */
export function presentUser(user: UserRecord): UserRow {
  return {
    uid: user.id,
    id: user.loginId,
    name: user.name,
    role: user.role,
    rank: user.rank,
    introducer: user.introducer,
    image: user.image,
    // The original client reads the display name and picture under these names too.
    username: user.name,
    user_image: user.image,
    unreads: NO_UNREADS,
  };
}

export function presentLogin(login: LoggedIn): LoginReply {
  return { uid: login.uid, role: login.role, rank: login.rank, name: login.name, session: login.session };
}
