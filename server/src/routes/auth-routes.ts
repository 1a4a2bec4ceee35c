import type { apiCalls } from '../http/calls.js';
import { presentLogin } from '../presenters/user-presenter.js';
import { presentSession } from '../presenters/session-presenter.js';
import type { LoginService } from '../services/login-service.js';
import type { PushService } from '../services/push-service.js';
import type { AccountNotices } from '../services/account-notices.js';
import type { Actor, SessionService } from '../services/session-service.js';

const OK = { status: 'OK' } as const;

export function authRoutes(
  calls: ReturnType<typeof apiCalls>,
  services: { login: LoginService; sessions: SessionService; push: PushService; notices: AccountNotices },
): void {
  calls.open('login', async ({ body, request }) => {
    const login = await services.login.login({
      id: body.id,
      password: body.password,
      device: body.device,
      address: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    });
    return 'ticket' in login ? login : presentLogin(login);
  });

  // An imported member's first login: the first password exchanged for their own (product.md §11.4).
  calls.open('login/first-password', async ({ body, request }) => {
    const login = await services.login.firstPassword(
      {
        id: body.id,
        password: body.password,
        newPassword: body.new_password,
        device: body.device,
        address: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      },
      new Date(),
    );
    return 'ticket' in login ? login : presentLogin(login);
  });

  calls.session('logout', 'account.use', async ({ body, actor }) => {
    // The device that logs out stops receiving this person's pushes (product.md §16.3).
    await services.push.unsubscribe(actor, body.subscript);
    await services.sessions.end(actor);
    return OK;
  });

  // ログイン中の端末 (product.md §11.6): one's own sessions, ending one or all the others.
  // The one asking first, then the others as the service orders them (most recently used first).
  const ownSessions = async (actor: Actor) => ({
    rows: (await services.sessions.list(actor))
      .map((row) => presentSession(row, actor.sessionId))
      .sort((x, y) => Number(y.current) - Number(x.current)),
  });
  calls.session('sessions', 'account.use', ({ actor }) => ownSessions(actor));
  calls.session('sessions/revoke', 'account.use', async ({ body, actor }) => {
    await services.sessions.revoke(actor, body.id);
    return ownSessions(actor);
  });
  calls.session('sessions/revoke_others', 'account.use', async ({ actor }) => {
    // Fresh proof first (product.md §11.8); audited and told like every change to how one logs in.
    const ended = await services.sessions.revokeOthers(actor);
    await services.notices.changed(actor, 'sessions_ended', { sessions: [ended, 0] }, { action: 'sessions' });
    return ownSessions(actor);
  });

  // Answers 200 both ways (product.md §11.4): the client only needs to know whether to keep its session.
  calls.open('auth', async ({ body }) => {
    if (body.uid === undefined) return { status: 'rejected' };
    const actor = await services.sessions.resolve(body.ssid);
    return { status: actor?.uid === body.uid ? 'accepted' : 'rejected' };
  });
}
