import type { Params } from 'react-router';
import { redirect } from './redirect';

/*
 * The public pages (product.md §2.1): visitors see them without a session, and the build prerenders them
 * (product.md §2.7, `prerendered-paths.ts`). Nothing here may import the api client or the session store, so that these pages'
 * first load stays small.
 */

/** /intro/male and /intro/female exist; any other /intro/... is an unknown path. */
export function requireEntryType({ params }: { params: Params }): null {
  if (params.type !== 'male' && params.type !== 'female') throw redirect('/');
  return null;
}

const publicPaths = [/^\/login\/?$/, /^\/enter\/?$/, /^\/intro\//];
export const isPublicPath = (pathname: string): boolean => publicPaths.some((path) => path.test(pathname));
