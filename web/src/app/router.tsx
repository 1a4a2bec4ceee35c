import { ja, type ConversationType } from '@enishi/contract';
import { useEffect, useMemo, type ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { queryClient } from '@/lib/query-client';
import { setExternalChangeHandler } from '@/lib/local-state';
import { setSessionEndedHandler } from '@/lib/session';
import { AppLayout } from '@/components/layouts/app-layout';
import { AppLoading } from './app-loading';
import { openDeskTalk } from './loaders';
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
import type * as GroupAdminScreens from './routes/group-admin';
import type * as MemberAdminScreens from './routes/member-admin';
import type { ScreenHandle } from './screen-handle';

/** Every screen is its own chunk, loaded when first visited. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const placeholder = screen(() => import('./routes/placeholder'));
// Content administration: one screen module serves both groups (the path says men or women).
const newsMenu = screen(() => import('./routes/news-menu'));
const newsAdminList = screen(() => import('./routes/news-admin-list'));
const newsAdminForm = screen(() => import('./routes/news-admin-form'));
const sendSelect = screen(() => import('./routes/send'));
const sendForm = screen(() => import('./routes/send-form'));

/** A screen that a later issue builds: for now its title and a placeholder note. */
const soon = (path: string, title: string): RouteObject => ({
  path,
  handle: { title } satisfies ScreenHandle,
  lazy: placeholder,
});

/** A room list (product.md §2): the rooms of one conversation type, with search and endless paging. */
const rooms = (path: string, title: string, type: ConversationType, staffTitle?: string): RouteObject => ({
  path,
  handle: { title, rooms: type, ...(staffTitle ? { staffTitle } : {}) } satisfies ScreenHandle,
  lazy: screen(() => import('./routes/rooms')),
});

/** A talk: it fills the screen under the header (the footer gives way to the comment box). */
const talk = (path: string, title: string): RouteObject => ({
  path,
  handle: { title, fill: true } satisfies ScreenHandle,
  lazy: screen(() => import('./routes/talk')),
});

/** Member, staff and group administration: a few modules, each holding several screens (one chunk each). */
const memberAdmin = (name: keyof typeof MemberAdminScreens) => async () => ({
  Component: (await import('./routes/member-admin'))[name],
});
const groupAdmin = (name: keyof typeof GroupAdminScreens) => async () => ({
  Component: (await import('./routes/group-admin'))[name],
});

/** The route table of product.md §2. */
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
          { path: 'course', lazy: screen(() => import('./routes/course')) },
          { path: 'news', lazy: screen(() => import('./routes/news')) },
          talk('talk/:id', ja.screens.talk),
          talk('talk/staff/:id', ja.screens.talkStaff),
          rooms('strooms', ja.screens.strooms, 'st'),
          {
            ...rooms('talkrooms/staff', ja.screens.talkroomsStaff, 'staff', ja.screens.staffRooms),
            loader: openDeskTalk,
          },
          { loader: requireMaleMember, children: [soon('member', ja.screens.member)] },

          // Staff (roles 1 to 6); members are sent home.
          {
            loader: requireStaff,
            children: [
              rooms('talkrooms', ja.screens.talkrooms, 'st'),
              rooms('talkrooms/setting', ja.screens.talkroomsSetting, 'st'),
              rooms('talkrooms/men', ja.screens.talkroomsMen, 'men'),
              rooms('talkrooms/women', ja.screens.talkroomsWomen, 'women'),
              { path: 'managegroup', lazy: groupAdmin('ManageGroup') },
              { path: 'managegroup/men', lazy: groupAdmin('ManageGroupMen') },
              { path: 'managegroup/women', lazy: groupAdmin('ManageGroupWomen') },
              { path: 'managegroup/select', lazy: groupAdmin('ManageGroupSelect') },
              { path: 'managegroup/confirm', lazy: groupAdmin('ManageGroupConfirm') },
              { path: 'men/menu', lazy: memberAdmin('MenMenu') },
              { path: 'menlist', lazy: memberAdmin('MenList') },
              { path: 'men/add', lazy: memberAdmin('MenAdd') },
              { path: 'men/edit', lazy: memberAdmin('MenEdit') },
              { path: 'women/menu', lazy: memberAdmin('WomenMenu') },
              { path: 'womenlist', lazy: memberAdmin('WomenList') },
              { path: 'women/add', lazy: memberAdmin('WomenAdd') },
              { path: 'women/edit', lazy: memberAdmin('WomenEdit') },
              { path: 'managewomen', lazy: memberAdmin('ManageWomen') },
              { path: 'news/menu', lazy: newsMenu },
              { path: 'news/men/list', lazy: newsAdminList },
              { path: 'news/women/list', lazy: newsAdminList },
              { path: 'news/men/add', lazy: newsAdminForm },
              { path: 'news/men/edit', lazy: newsAdminForm },
              { path: 'news/women/add', lazy: newsAdminForm },
              { path: 'news/women/edit', lazy: newsAdminForm },
              { path: 'managead', lazy: screen(() => import('./routes/managead')) },
              { path: 'men/send', lazy: sendSelect },
              { path: 'women/send', lazy: sendSelect },
              { path: 'men/send/form', lazy: sendForm },
              { path: 'women/send/form', lazy: sendForm },
            ],
          },

          // Staff administration: the owner (role 2) only.
          {
            loader: requireOwner,
            children: [
              { path: 'staff/menu', lazy: memberAdmin('StaffMenu') },
              { path: 'staff/list', lazy: memberAdmin('StaffList') },
              { path: 'staff/add', lazy: memberAdmin('StaffAdd') },
              { path: 'staff/edit', lazy: memberAdmin('StaffEdit') },
              { path: 'staff/audit', lazy: memberAdmin('AuditLogScreen') },
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
