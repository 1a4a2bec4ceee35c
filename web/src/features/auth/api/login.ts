import { LoginReply, type LoginBody } from '@enishi/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '@/lib/api-client';
import { setSession } from '@/lib/session';

/** POST /api/login {id, password} -> {uid, role, rank, name, session}. */
export function login(body: LoginBody): Promise<LoginReply> {
  return apiCall('login', body, { reply: LoginReply, public: true });
}

/** Logs in and keeps the session on this device. */
export function useLogin() {
  return useMutation({
    mutationFn: login,
    onSuccess: (reply) => setSession({ ...reply, image: null }),
  });
}
