import { useLazyAction } from '@/lib/use-lazy-action';

const loadLogIn = () => import('../api/login').then((module) => module.logIn);

/** Logs in (loading the call only when the form is used) and keeps the session on this device. */
export const useLogin = () => useLazyAction(loadLogIn);
