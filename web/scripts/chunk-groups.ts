import type { CodeSplittingGroup } from 'rolldown';

/*
 * How the build splits the app into files (vite.config.ts's `codeSplitting`): each file is a request a phone
 * waits on, and each byte one it downloads, so a screen's first load is a few chunks made for it (docs/
 * ARCHITECTURE.md, the first loads), and the rest follows the screens that use it.
 */

/** The modules of a member's first load (see the `member-core` chunk below). */
const memberCore = [
  'src/app/member-area',
  'src/app/member-services',
  'src/app/guards',
  'src/app/routes/home',
  // The home's loader: its requests start as soon as the route is known, not a round trip later. A talk's
  // loader is a chunk of its own, which the talk's shell links (a man's home does not load it).
  'src/app/prefetch-home',
  'src/lib/chat/',
  'src/lib/notifications',
  'src/lib/push-subscription',
  'src/lib/push-device',
  // The IndexedDB opener of the outbox, the kept talks and the push device.
  'src/lib/idb',
  'src/lib/use-now',
  'src/lib/use-media-query',
  'src/lib/auth.',
  'src/lib/api-client',
  'src/lib/early-calls',
  'src/lib/local-state',
  'src/lib/session',
  'src/lib/query-client',
  // The member's last screen: read by the home's loader, kept from the home (product.md §15.6).
  'src/lib/last-screen',
  'src/lib/keep-last-screen',
  'src/components/layouts/app-layout',
  'src/components/ui/count-badge',
  'src/components/ui/user-icon',
  'src/components/ui/icons/menu',
  'src/components/logout-button',
  'src/features/call/controller/index',
  'src/features/call/controller/call-state',
  'src/features/call/components/call-layer',
  'src/features/home/',
  // Account notices are read on every open, and the re-auth dialog's host waits for a refused call: both
  // small; what they show is a chunk of its own.
  'src/features/security/components/account-notices-host',
  'src/features/security/components/reauth-host',
  'contract/src/roles',
  'contract/src/permissions',
  'contract/src/wire',
  'contract/src/ja-member/banners',
  // Not the calls' words: no module here reads them; a talk and the call controller load them (1 kB).
];

/** The modules a talk's first load shares with other screens (the `talk-common` chunk below). */
const talkCommon = [
  'src/app/prefetch-talk',
  'src/app/desk-console-lazy',
  'src/features/talk/api/get-conversation',
  'src/features/talk/api/get-messages',
  'src/features/talk/utils/auto-reply-rule',
  'src/lib/japan-date',
  'src/lib/use-club-calendar',
  'src/lib/links',
  'src/lib/use-image-picker',
  'src/lib/image-files',
  'src/components/ui/linked-text',
  'src/components/ui/icons/talk',
  'src/components/ui/icons/call',
  'src/components/ui/icons/screens',
  'contract/src/ja-member/unsend',
  'contract/src/ja-member/desk',
  'contract/src/ja-member/calls',
  'contract/src/ja-member/images',
  'contract/src/business-hours',
  '@tanstack/query-core/build/modern/infiniteQueryObserver',
  '@tanstack/query-core/build/modern/infiniteQueryBehavior',
  '@tanstack/react-query/build/modern/useInfiniteQuery',
];

/**
 * Modules under the paths above that a man's home does not load: the staff's home menu and its applications'
 * count load when a staff member's home draws them (features/home/components/staff-menu.tsx).
 */
const notMemberCore = [
  'src/features/home/components/staff-menu',
  'src/features/home/api/get-new-application-count',
];

/** The entry's own chunks (the chunk groups below), which every page loads first. */
export const ENTRY_FILES = /(^|\/)assets\/(rolldown-runtime|react|public-ui)-[\w-]{8}\.js$/;

export const chunkGroups: CodeSplittingGroup[] = [
  {
    // The few small pieces the intro pages' form shares with the member area (phrase breaks,
    // fields): one chunk instead of four tiny ones on a first load. Not the application rules: their
    // words (jaIntro) would come along to every member's home.
    name: 'public-ui',
    priority: 3,
    test: /src[\\/](components[\\/]ui[\\/](phrase-text|field-shell|text-field)|lib[\\/]api-error)\.tsx?$/,
  },
  {
    // A member's first load: the member area's shell, its socket and push, and the home screen, in one
    // chunk instead of twenty small ones, each a round trip on a phone's connection (issue 29).
    name: 'member-core',
    priority: 2,
    includeDependenciesRecursively: false,
    test: (id: string) =>
      memberCore.some((path) => id.includes(path)) && !notMemberCore.some((path) => id.includes(path)),
  },
  {
    // A call: the controller (signalling, the peer, the ringer) and its overlay, loaded together by the
    // first call frame or phone button (features/call).
    name: 'call-controller',
    priority: 1,
    includeDependenciesRecursively: false,
    test: /src[\\/]features[\\/]call[\\/](controller[\\/](create|call-(controller|line|watch|store|signals)|peer|ringer)|components[\\/]call-(overlay|bar|phase-text|actions))\.(tsx?|css)$/,
  },
  {
    name: 'react',
    priority: 2,
    test: /node_modules[\\/](react|react-dom|scheduler|react-router|cookie|set-cookie-parser)[\\/]/,
  },
  {
    // zod with the contract's schemas (every contract module that imports zod): only a screen that
    // checks a form loads them. The first loads read replies and frames unparsed (decision 021), so the
    // words, limits and permissions they need live in zod-free modules of the contract.
    name: 'schemas',
    priority: 2,
    // Not the catalogue and permissions the schemas import: those are part of the first loads.
    includeDependenciesRecursively: false,
    test: /node_modules[\\/]zod[\\/]|packages[\\/]contract[\\/]src[\\/](admin|back-office|call-frames|calls|common|content|desk|http|profile-calls|profile|push|read-marks|second-factor|sessions|setting|socket|talk|women)\.ts$/,
  },
  {
    name: 'vendor',
    priority: 1,
    // The query cache alone: other libraries (the staff's tables, the passkey and QR code of the
    // security screens) stay in the chunks of the screens that use them, so no member loads them
    // with the home screen. So do the query cache's paged lists and changes (useInfiniteQuery,
    // useMutation): the home uses neither.
    test: (id: string) =>
      /node_modules[\\/]@tanstack[\\/](react-query|query-core)[\\/]/.test(id) &&
      !/[\\/](infiniteQueryObserver|mutationObserver|useInfiniteQuery|useMutation)\.js$/.test(id),
  },
  {
    // A talk's first load: the modules its screen shares with other screens (dates, links, the image
    // picker, the desk's hours, catalogue sections), in one chunk instead of a dozen small ones, each a
    // round trip on a phone's connection (a man's talk: 21 script files, not 37). A screen that uses
    // one of them loads them all (the news: dates and links, 8 kB). Not the page layout: a man's home
    // would load the chunk too.
    name: 'talk-common',
    priority: 1,
    includeDependenciesRecursively: false,
    test: (id: string) => talkCommon.some((path) => id.includes(path)),
  },
];
