import { useLazyAction } from '@/lib/use-lazy-action';

const loadLogIn = () => import('../api/login').then((module) => module.logIn);
const loadSecond = () => import('../api/login').then((module) => module.logInSecond);
const loadFirstPassword = () => import('../api/login').then((module) => module.logInFirstPassword);
const loadPasskey = () => import('../api/login').then((module) => module.logInWithPasskey);

/** Logs in (loading the call only when the form is used) and keeps the session on this device. */
export const useLogin = () => useLazyAction(loadLogIn);
/** The second step of a login (product.md §11.7). */
export const useLoginSecond = () => useLazyAction(loadSecond);
/** A passwordless login with a passkey. */
export const usePasskeyLogin = () => useLazyAction(loadPasskey);
/** An imported member's first login: their own password replaces the first one (product.md §11.4). */
export const useFirstPasswordLogin = () => useLazyAction(loadFirstPassword);
