import { ja, type ConversationType } from '@enishi/contract';
import type { ComponentType } from 'react';
import type { Params } from 'react-router';
import {
  AppRouter as NavigationRouter,
  createAppRouter as createNavigationRouter,
  type AppRoute,
  type AppRouterInstance,
} from './navigation';
import { requireEntryType } from './public-routes';
import { redirect } from './redirect';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import type * as GroupAdminScreens from './routes/group-admin';
import type * as MemberAdminScreens from './routes/member-admin';
import type * as ProfileAdminScreens from './routes/profile-admin';
import type * as SettingScreens from './routes/settings';
import type { ScreenHandle } from './screen-handle';
import type { LayoutHandle } from '@/components/layouts/app-layout';

/** Every screen is its own chunk, loaded when first visited. */
const screen = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

// Content administration: one screen module serves both groups (the path says men or women).
const newsMenu = screen(() => import('./routes/news-menu'));
const newsAdminList = screen(() => import('./routes/news-admin-list'));
const newsAdminForm = screen(() => import('./routes/news-admin-form'));
const sendSelect = screen(() => import('./routes/send'));
const sendForm = screen(() => import('./routes/send-form'));
// /call and /contact: one screen, its notice depends on the path and the role.
const callScreen = screen(() => import('./routes/call'));

/*
 * The member area's guards and layout load with its first screen: a visitor's first load (the prerendered
 * public pages, product.md §2.7) carries neither the session store, the api client nor the query cache.
 */
const guard =
  (
    name:
      | 'requireStoredSession'
      | 'requireStaff'
      | 'requireOwner'
      | 'requireCalendarManager'
      | 'requireReportViewer'
      | 'requireMaleMember'
      | 'requireCaller',
  ) =>
  async () =>
    (await import('./guards'))[name]();
// The router holds itself here, so that a session the server turns down after its screen opened leaves.
let appRouter: AppRouterInstance | null = null;
const requireSession = async () =>
  (await import('./guards')).requireSession(() => void appRouter?.navigate('/enter', { replace: true }));
const requireStoredSession = guard('requireStoredSession');
const requireStaff = guard('requireStaff');
const requireOwner = guard('requireOwner');
const requireCalendarManager = guard('requireCalendarManager');
const requireReportViewer = guard('requireReportViewer');
const requireMaleMember = guard('requireMaleMember');
const requireCaller = guard('requireCaller');
const openDeskTalk = async () => (await import('./loaders')).openDeskTalk();
const memberArea = async () => ({ Component: (await import('./member-area')).MemberArea });

/** A room list (product.md §2): the rooms of one conversation type, with search and endless paging. */
const rooms = (path: string, title: string, type: ConversationType, staffTitle?: string): AppRoute => ({
  path,
  handle: { title, rooms: type, desk: true, ...(staffTitle ? { staffTitle } : {}) } satisfies ScreenHandle,
  lazy: screen(() => import('./routes/rooms')),
});

/**
 * A talk's prefetch runs again only for another talk: `?m=` (the message to show) changes nothing it reads,
 * and asking again would fetch a page nobody uses.
 */
export const talkPrefetchRuns = (current: Params, next: Params): boolean => current.id !== next.id;

/**
 * A talk: it fills the screen under the header (the footer gives way to the comment box). `deskTalk`: the
 * path of a member's talk with the staff.
 */
const talk = (path: string, title: string, deskTalk = false): AppRoute => ({
  path,
  handle: { title, fill: true } satisfies ScreenHandle,
  loader: async ({ params }) => (await import('./prefetch-talk')).prefetchTalk(params.id, deskTalk),
  shouldRevalidate: talkPrefetchRuns,
  lazy: screen(() => import('./routes/talk')),
});

/** Member, staff and group administration: a few modules, each holding several screens (one chunk each). */
const memberAdmin = (name: keyof typeof MemberAdminScreens) => async () => ({
  Component: (await import('./routes/member-admin'))[name],
});
const profileAdmin = (name: keyof typeof ProfileAdminScreens) => async () => ({
  Component: (await import('./routes/profile-admin'))[name],
});
const groupAdmin = (name: keyof typeof GroupAdminScreens) => async () => ({
  Component: (await import('./routes/group-admin'))[name],
});

const settingScreen = (name: keyof typeof SettingScreens) => async () => ({
  Component: (await import('./routes/settings'))[name],
});

/** The route table of product.md §2. */
export const routes: AppRoute[] = [
  {
    path: '/',
    Component: RootLayout,
    children: [
      // Public: visitors.
      { path: 'enter', lazy: screen(() => import('./routes/enter')) },
      { path: 'login', lazy: screen(() => import('./routes/login')) },
      // Staff who must set up a second factor first: before the member area (product.md §11.7).
      {
        path: 'security/setup',
        loader: requireStoredSession,
        lazy: screen(() => import('./routes/security-setup')),
      },
      { path: 'intro/:type', loader: requireEntryType, lazy: screen(() => import('./routes/intro')) },

      // Login only: the session is checked with the server on every navigation (cached briefly), in parallel.
      {
        id: 'member-area',
        loader: requireSession,
        lazy: memberArea,
        children: [
          {
            index: true,
            loader: async () => (await import('./prefetch-home')).prefetchHome(),
            lazy: screen(() => import('./routes/home')),
          },
          { path: 'mypage', lazy: screen(() => import('./routes/mypage')) },
          { path: 'mypage/profile', lazy: profileAdmin('OwnProfileScreen') },
          { path: 'security', lazy: screen(() => import('./routes/security')) },
          {
            loader: requireCaller,
            children: [
              { path: 'call', lazy: callScreen },
              { path: 'contact', lazy: callScreen },
            ],
          },
          { path: 'course', lazy: screen(() => import('./routes/course')) },
          { path: 'news', lazy: screen(() => import('./routes/news')) },
          { path: 'search', lazy: screen(() => import('./routes/search')) },
          talk('talk/:id', ja.screens.talk),
          talk('talk/staff/:id', ja.screens.talkStaff, true),
          rooms('strooms', ja.screens.strooms, 'st'),
          {
            ...rooms('talkrooms/staff', ja.screens.talkroomsStaff, 'staff', ja.screens.staffRooms),
            loader: openDeskTalk,
          },
          { path: 'setting/history', lazy: settingScreen('SettingHistoryScreen') },
          {
            loader: requireMaleMember,
            children: [
              { path: 'member', lazy: screen(() => import('./routes/member')) },
              { path: 'member/women', lazy: screen(() => import('./routes/member')) },
              { path: 'member/:id', lazy: screen(() => import('./routes/woman')) },
            ],
          },

          // Staff (roles 1 to 6); members are sent home.
          {
            loader: requireStaff,
            children: [
              rooms('talkrooms', ja.screens.talkrooms, 'st'),
              rooms('talkrooms/setting', ja.screens.talkroomsSetting, 'st'),
              rooms('talkrooms/men', ja.screens.talkroomsMen, 'men'),
              {
                path: 'setting/requests',
                handle: { wide: true } satisfies LayoutHandle,
                lazy: settingScreen('SettingRequestsScreen'),
              },
              rooms('talkrooms/women', ja.screens.talkroomsWomen, 'women'),
              { path: 'applications', lazy: profileAdmin('ApplicationsScreen') },
              { path: 'replies', lazy: screen(() => import('./routes/replies')) },
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
              { path: 'stamps', lazy: screen(() => import('./routes/stamp-admin')) },
              { path: 'men/send', lazy: sendSelect },
              { path: 'women/send', lazy: sendSelect },
              { path: 'men/send/form', lazy: sendForm },
              { path: 'women/send/form', lazy: sendForm },
            ],
          },

          // The club's calendar: the admin and the owner (calendar.manage).
          {
            loader: requireCalendarManager,
            children: [{ path: 'calendar', lazy: screen(() => import('./routes/calendar-admin')) }],
          },

          // Reports: the admin and the owner (report.view); the chart library comes with this screen alone.
          {
            loader: requireReportViewer,
            children: [
              {
                path: 'reports',
                handle: { wide: true } satisfies LayoutHandle,
                lazy: screen(() => import('./routes/reports')),
              },
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
              { path: 'staff/lists', lazy: profileAdmin('ClubListsScreen') },
              { path: 'staff/profile-fields', lazy: profileAdmin('EditableFieldsScreen') },
            ],
          },
        ],
      },

      // An unknown path goes home (and from there to /enter without a session).
      {
        path: '*',
        loader: () => {
          throw redirect('/');
        },
      },
    ],
  },
];

/**
 * The app's router (navigation.tsx), made once as the app starts (not in a render, which StrictMode runs
 * twice): it resolves the address the app opened at (its guards, prefetches and screen) before the first render,
 * so a prerendered public page (product.md §2.7) is taken over as it is, without a loading screen in between.
 */
export async function createAppRouter(): Promise<AppRouterInstance> {
  // Held before the first screen is resolved: a session turned down meanwhile still leaves.
  appRouter = createNavigationRouter(routes);
  await appRouter.ready;
  return appRouter;
}

export type { AppRouterInstance };

export function AppRouter({ router }: { router: AppRouterInstance }) {
  return <NavigationRouter router={router} errorScreen={RouteError} />;
}
