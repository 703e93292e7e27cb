import type { PageCall } from '../api/calls.js';
import type { ExposedName, ExposedProps } from '../exposes.js';
import { PAGE_DATA, searchQueryOf } from './pageData.js';
import type { RemoteName } from './remotes.js';
import { pathSegments } from './routes.js';

/** The `:name` parameters of a path pattern: '/event/:eventIdentifier' has 'eventIdentifier'. */
export type PathParams<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Param}`
    ? Param
    : never;

/** Which header the shell shows above the page (SPEC.md section 2): full, or logo and name only. */
export type HeaderVariant = 'full' | 'compact';
/**
 * The footer under the page (SPEC.md section 1): the default one, the sign-up page's lighter one,
 * or none (a receipt: SPEC.md section 2, "any path containing /receipt has no footer").
 */
export type FooterVariant = 'default' | 'signup' | 'none';

/** The `:name` values of `pathname` under `pattern`, decoded as the router's `useParams` gives them. */
function paramsIn(pattern: string, pathname: string): Record<string, string> {
  const names = pathSegments(pattern);
  const parts = pathSegments(pathname);
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    if (!name.startsWith(':')) return;
    const raw = parts[i] ?? '';
    try {
      params[name.slice(1)] = decodeURIComponent(raw);
    } catch {
      params[name.slice(1)] = raw;
    }
  });
  return params;
}

/**
 * What a page renders from (Remix's and Modern.js's loaders): the API calls its components ask
 * for, from its path's parameters and its query. The page server sends them all at once and
 * renders once; the browser sends them beside loading the page's code on a client navigation.
 */
export type PageLoader<P extends string> = (
  params: Record<PathParams<P>, string>,
  search: URLSearchParams,
) => readonly PageCall[];

/** Calls `use` with a page's remote, module and props, typed together. */
export type SlotVisitor<T> = <R extends RemoteName, M extends ExposedName<R>>(
  remote: R,
  module: M,
  props: ExposedProps<R, M>,
) => T;

/** A page as a route: where it is and what renders it. */
export interface PageRoute {
  key: string;
  path: string;
  /**
   * What the page is, for its tab, bookmarks, history and screen readers (`Title · EventMedia`). A
   * page about one thing (an event, a creator, an order) names it once its data is there
   * (`usePageHead`); this is what it says until then.
   */
  title: string;
  /** The page's meta description: one sentence for search results and link previews. */
  description: string;
  remote: RemoteName;
  module: string;
  header: HeaderVariant;
  footer: FooterVariant;
  /** Hands the page's remote, module and props to `use`, so a caller renders it without casts. */
  slot<T>(use: SlotVisitor<T>): T;
  /** The calls its loader names for this location (none for a page without data). */
  calls(location: { pathname: string; search: string }): readonly PageCall[];
}

export interface Page<P extends string = string> extends PageRoute {
  path: P;
  /** The page's URL; parameters are URL-encoded. */
  href(...params: [PathParams<P>] extends [never] ? [] : [Record<PathParams<P>, string>]): string;
}

function page<K extends string, P extends string, R extends RemoteName, M extends ExposedName<R>>(def: {
  key: K;
  path: P;
  remote: R;
  module: M;
  props: ExposedProps<R, M>;
  title: string;
  description: string;
  header?: HeaderVariant;
  footer?: FooterVariant;
  loader?: PageLoader<P>;
}): Page<P> & { key: K } {
  const { key, path, remote, module, props, title, description, header = 'full', footer = 'default', loader } = def;
  return {
    key,
    path,
    title,
    description,
    remote,
    module,
    header,
    footer,
    href: (...params) => {
      const values: Partial<Record<string, string>> = params[0] ?? {};
      return path.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));
    },
    slot: (use) => use(remote, module, props),
    calls: ({ pathname, search }) =>
      loader?.(paramsIn(path, pathname) as Record<PathParams<P>, string>, new URLSearchParams(search)) ?? [],
  };
}

/**
 * Every page of the product (SPEC.md section 2): its path, the remote and exposed module that
 * render it, and the header and footer around it. The shell's routes, the remotes' standalone
 * routes, the header's compact pages and every link come from here; adding a page is one entry
 * here plus its module in the owning remote's `exposes/` folder.
 */
export const PAGES = {
  home: page({
    key: 'home',
    path: '/',
    remote: 'media',
    module: 'EventsPage',
    title: 'Event photos and videos',
    description:
      'Browse upcoming events and the photos and videos taken at them, and order media work for your own event.',
    loader: () => [PAGE_DATA.events()],
    props: {},
  }),
  events: page({
    key: 'events',
    path: '/events',
    remote: 'media',
    module: 'EventsPage',
    title: 'Events',
    description:
      'Browse upcoming events and the photos and videos taken at them, and order media work for your own event.',
    loader: () => [PAGE_DATA.events()],
    props: {},
  }),
  event: page({
    key: 'event',
    path: '/event/:eventIdentifier',
    remote: 'media',
    module: 'EventPage',
    title: 'Event',
    description: 'Photos and videos from this event, from the photographers who covered it.',
    loader: ({ eventIdentifier }) => [PAGE_DATA.event(eventIdentifier)],
    props: {},
  }),
  community: page({
    key: 'community',
    path: '/community',
    remote: 'media',
    module: 'CommunityPage',
    title: 'Community',
    description: 'Posts from the photographers, videographers and organisers of the community.',
    loader: () => [PAGE_DATA.posts()],
    props: {},
  }),
  search: page({
    key: 'search',
    path: '/search',
    remote: 'media',
    module: 'SearchPage',
    title: 'Search',
    description: 'Events, photos, videos and people matching your search.',
    // The header's search box opens it as /search?q=…; the API takes at most 100 characters.
    loader: (_params, search) => {
      const query = searchQueryOf(search);
      return query ? [PAGE_DATA.search(query)] : [];
    },
    props: {},
  }),
  cart: page({
    key: 'cart',
    path: '/cart',
    remote: 'media',
    module: 'CartPage',
    title: 'Your cart',
    description: 'The photos and videos in your cart.',
    props: {},
  }),
  eventOrder: page({
    key: 'eventOrder',
    path: '/eventorder/:orderId',
    remote: 'eventOrder',
    module: 'EventOrderPage',
    title: 'Event order',
    description: 'An event media order: its progress, requirements, uploads and payout.',
    loader: ({ orderId }, search) => [PAGE_DATA.eventOrder(orderId, search.get('sharingId') ?? undefined)],
    props: {},
  }),
  login: page({
    key: 'login',
    path: '/user/login',
    remote: 'account',
    module: 'LoginPage',
    title: 'Log in',
    description: 'Log in to buy photos and videos, follow your orders and talk to photographers.',
    props: {},
    header: 'compact',
  }),
  signup: page({
    key: 'signup',
    path: '/user/signup',
    remote: 'account',
    module: 'SignupPage',
    title: 'Sign up',
    description: 'Create an account to buy event photos and videos, sell your own, or run events.',
    props: {},
    header: 'compact',
    footer: 'signup',
  }),
  // Accounts people can recover (issue item 4): a link by mail, then a new password.
  forgotPassword: page({
    key: 'forgotPassword',
    path: '/user/forgot-password',
    remote: 'account',
    module: 'ForgotPasswordPage',
    title: 'Forgot password',
    description: 'Get a link by email to set a new password for your account.',
    props: {},
    header: 'compact',
  }),
  resetPassword: page({
    key: 'resetPassword',
    path: '/user/reset-password',
    remote: 'account',
    module: 'ResetPasswordPage',
    title: 'Set a new password',
    description: 'Set a new password for your account with the link you were sent.',
    props: {},
    header: 'compact',
  }),
  profile: page({
    key: 'profile',
    path: '/user/me',
    remote: 'account',
    module: 'ProfilePage',
    title: 'Your profile',
    description: 'Your public profile: picture, bio and what you have published.',
    loader: () => [PAGE_DATA.ownProfile()],
    props: {},
  }),
  orders: page({
    key: 'orders',
    path: '/user/orders',
    remote: 'account',
    module: 'OrdersPage',
    title: 'Your orders',
    description: 'The event media orders you placed or work on.',
    loader: () => [PAGE_DATA.eventOrders()],
    props: {},
  }),
  myEvents: page({
    key: 'myEvents',
    path: '/user/events',
    remote: 'account',
    module: 'MyEventsPage',
    title: 'Your events',
    description: 'The events you organise.',
    loader: () => [PAGE_DATA.myEvents()],
    props: {},
  }),
  mediaPackages: page({
    key: 'mediaPackages',
    path: '/user/mediaPackages',
    remote: 'account',
    module: 'MediaPackagesPage',
    title: 'Media packages',
    description: 'The media packages you offer to event organisers and clients.',
    loader: () => [PAGE_DATA.mediaPackages()],
    props: {},
  }),
  discountCodes: page({
    key: 'discountCodes',
    path: '/user/discountCodes',
    remote: 'account',
    module: 'DiscountCodesPage',
    title: 'Discount codes',
    description: 'The discount codes you offer.',
    loader: () => [PAGE_DATA.discountCodes()],
    props: {},
  }),
  purchases: page({
    key: 'purchases',
    path: '/user/purchases',
    remote: 'account',
    module: 'PurchasesPage',
    title: 'Your purchases',
    description: 'The photos and videos you bought, to download.',
    loader: () => [PAGE_DATA.purchases()],
    props: {},
  }),
  sales: page({
    key: 'sales',
    path: '/user/sales',
    remote: 'account',
    module: 'SalesPage',
    title: 'Your sales',
    description: 'The photos and videos you sold, with your payout per month.',
    loader: () => [PAGE_DATA.sales()],
    props: {},
  }),
  // Not under /user/: that would hide a creator called "notifications" (profile names reserve none).
  notifications: page({
    key: 'notifications',
    path: '/notifications',
    remote: 'header',
    module: 'NotificationsPage',
    title: 'Notifications',
    description: 'Everything you were notified of: orders, events and people, newest first.',
    props: {},
  }),
  // react-router ranks the static /user/* paths above this one.
  creator: page({
    key: 'creator',
    path: '/user/:profileName',
    remote: 'media',
    module: 'CreatorPage',
    title: 'Creator',
    description: "A photographer's or organiser's photos, videos and posts.",
    loader: ({ profileName }) => [PAGE_DATA.creator(profileName)],
    props: {},
  }),
  receipt: page({
    key: 'receipt',
    path: '/receipt/:purchaseNumber',
    remote: 'account',
    module: 'ReceiptPage',
    title: 'Receipt',
    description: 'The receipt of a purchase: what was bought, at what price, and its payment.',
    loader: ({ purchaseNumber }) => [PAGE_DATA.purchase(purchaseNumber)],
    props: {},
    footer: 'none',
  }),
  settings: page({
    key: 'settings',
    path: '/settings/general',
    remote: 'account',
    module: 'SettingsPage',
    title: 'Settings',
    description: "Your account's settings.",
    loader: () => [PAGE_DATA.ownProfile()],
    props: {},
  }),
  faq: page({
    key: 'faq',
    path: '/faq',
    remote: 'account',
    module: 'FaqPage',
    title: 'Frequently asked questions',
    description: 'Answers to common questions about buying, selling and ordering event media.',
    props: {},
  }),
  terms: page({
    key: 'terms',
    path: '/legal/terms-of-service',
    remote: 'account',
    module: 'LegalPage',
    title: 'Terms of service',
    description: 'The terms of service of the marketplace.',
    props: { document: 'terms-of-service' },
    header: 'compact',
  }),
  privacy: page({
    key: 'privacy',
    path: '/legal/privacy-policy',
    remote: 'account',
    module: 'LegalPage',
    title: 'Privacy policy',
    description: 'How the marketplace handles your personal data.',
    props: { document: 'privacy-policy' },
    header: 'compact',
  }),
  cookies: page({
    key: 'cookies',
    path: '/legal/cookie-policy',
    remote: 'account',
    module: 'LegalPage',
    title: 'Cookie policy',
    description: 'Which cookies the marketplace uses and why.',
    props: { document: 'cookie-policy' },
    header: 'compact',
  }),
};

export type PageKey = keyof typeof PAGES;
export const PAGE_LIST: readonly (PageRoute & { key: PageKey })[] = Object.values(PAGES);

/** The pages a remote renders, e.g. for its standalone development routes. */
export const pagesOf = (remote: RemoteName) => PAGE_LIST.filter((p) => p.remote === remote);
