import { ja } from '@enishi/contract';
import { useEffect, useMemo, type ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { queryClient } from '@/lib/query-client';
import { setExternalChangeHandler } from '@/lib/local-state';
import { setSessionEndedHandler } from '@/lib/session';
import { AppLayout } from '@/components/layouts/app-layout';
import { AppLoading } from './app-loading';
import {
  isPublicPath,
  requireEntryType,
  requireMaleMember,
  requireOwner,
  requireSession,
  requireStaff,
} from './guards';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import type { ScreenHandle } from './screen-handle';

/** Every screen is its own chunk, loaded when first visited. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const placeholder = screen(() => import('./routes/placeholder'));

/** A screen that a later issue builds: for now its title and a placeholder note. */
const soon = (path: string, title: string): RouteObject => ({
  path,
  handle: { title } satisfies ScreenHandle,
  lazy: placeholder,
});

/** The route table of SPEC §2. */
export const routes: RouteObject[] = [
  {
    path: '/',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    HydrateFallback: AppLoading,
    children: [
      // Public: visitors.
      { path: 'enter', lazy: screen(() => import('./routes/enter')) },
      { path: 'login', lazy: screen(() => import('./routes/login')) },
      { path: 'intro/:type', loader: requireEntryType, lazy: screen(() => import('./routes/intro')) },

      // Login only: the session is checked with the server on every navigation (cached briefly).
      {
        id: 'member-area',
        loader: requireSession,
        shouldRevalidate: () => true,
        Component: AppLayout,
        HydrateFallback: AppLoading,
        children: [
          { index: true, lazy: screen(() => import('./routes/home')) },
          { path: 'mypage', lazy: screen(() => import('./routes/mypage')) },
          soon('call', ja.screens.call),
          soon('contact', ja.screens.contact),
          soon('course', ja.screens.course),
          soon('news', ja.screens.news),
          soon('talk/:id', ja.screens.talk),
          soon('talk/staff/:id', ja.screens.talkStaff),
          soon('strooms', ja.screens.strooms),
          soon('talkrooms/staff', ja.screens.talkroomsStaff),
          { loader: requireMaleMember, children: [soon('member', ja.screens.member)] },

          // Staff (roles 1 to 6); members are sent home.
          {
            loader: requireStaff,
            children: [
              soon('talkrooms', ja.screens.talkrooms),
              soon('talkrooms/setting', ja.screens.talkroomsSetting),
              soon('talkrooms/men', ja.screens.talkroomsMen),
              soon('talkrooms/women', ja.screens.talkroomsWomen),
              soon('managegroup', ja.screens.managegroup),
              soon('managegroup/men', ja.screens.managegroupMen),
              soon('managegroup/women', ja.screens.managegroupWomen),
              soon('managegroup/select', ja.screens.managegroupSelect),
              soon('managegroup/confirm', ja.screens.managegroupConfirm),
              soon('men/menu', ja.screens.menAdmin),
              soon('menlist', ja.screens.menList),
              soon('men/add', ja.screens.menAdd),
              soon('men/edit', ja.screens.menEdit),
              soon('women/menu', ja.screens.womenAdmin),
              soon('womenlist', ja.screens.womenList),
              soon('women/add', ja.screens.womenAdd),
              soon('women/edit', ja.screens.womenEdit),
              soon('managewomen', ja.screens.manageWomen),
              soon('news/menu', ja.screens.newsAdmin),
              soon('news/men/list', ja.screens.newsMenList),
              soon('news/women/list', ja.screens.newsWomenList),
              soon('news/men/add', ja.screens.newsMenAdd),
              soon('news/men/edit', ja.screens.newsMenEdit),
              soon('news/women/add', ja.screens.newsWomenAdd),
              soon('news/women/edit', ja.screens.newsWomenEdit),
              soon('managead', ja.screens.bannerAdmin),
              soon('men/send', ja.screens.sendMen),
              soon('women/send', ja.screens.sendWomen),
              soon('men/send/form', ja.screens.sendMenForm),
              soon('women/send/form', ja.screens.sendWomenForm),
            ],
          },

          // Staff administration: the owner (role 2) only.
          {
            loader: requireOwner,
            children: [
              soon('staff/menu', ja.screens.staffAdmin),
              soon('staff/list', ja.screens.staffList),
              soon('staff/add', ja.screens.staffAdd),
              soon('staff/edit', ja.screens.staffEdit),
            ],
          },
        ],
      },

      // An unknown path goes home (and from there to /enter without a session).
      { path: '*', loader: () => redirect('/') },
    ],
  },
];

export function AppRouter() {
  const router = useMemo(() => createBrowserRouter(routes), []);

  useEffect(() => {
    // The server ended the session (401), or another tab logged out: leave the member area.
    const leave = () => {
      queryClient.clear();
      if (!isPublicPath(router.state.location.pathname)) void router.navigate('/enter', { replace: true });
    };
    setSessionEndedHandler(leave);
    setExternalChangeHandler((previous, next) => {
      if (previous.session && previous.session.session !== next.session?.session) leave();
    });
    return () => {
      setSessionEndedHandler(undefined);
      setExternalChangeHandler(undefined);
    };
  }, [router]);

  return <RouterProvider router={router} />;
}
