import type { LoginBody, LoginReply } from '@enishi/contract';
import { api } from '@/lib/api-client';
import { setSession } from '@/lib/session';

/** POST /api/login {id, password} -> {uid, role, rank, name, session}. */
export function login(body: LoginBody): Promise<LoginReply> {
  return api('login', body, { public: true });
}

/** Logs in and keeps the session on this device. */
export async function logIn(body: LoginBody): Promise<LoginReply> {
  const reply = await login(body);
  setSession({ ...reply, image: null });
  return reply;
}
