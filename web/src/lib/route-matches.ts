import { createContext, use } from 'react';
import type { Params } from 'react-router';

/** A route matched by the address on screen: its part of the path, its parameters and its handle. */
export type RouteMatchInfo = { pathname: string; params: Params; handle: unknown };

/** Given by the app's router (app/navigation.tsx) around every screen. */
export const RouteMatchesContext = createContext<RouteMatchInfo[]>([]);

/** Every route matched by the address on screen, outermost first: their handles say how to lay it out. */
export const useRouteMatches = (): RouteMatchInfo[] => use(RouteMatchesContext);
