/*
 * The app's icons (icons/icon.tsx), one module per part of the app that uses them: a chunk carries only the
 * icons of the screens in it, so a first load does not bring every icon of every screen.
 */
export * from './icons/menu';
export * from './icons/screens';
export * from './icons/status';
export * from './icons/entry';
export * from './icons/talk';
export * from './icons/call';
export * from './icons/mypage';
