import type { ExposedName, ExposedProps } from '../exposes.js';
import type { RemoteName } from './remotes.js';

/** The `:name` parameters of a path pattern: '/event/:eventIdentifier' has 'eventIdentifier'. */
export type PathParams<P extends string> = P extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Param}`
    ? Param
    : never;

/** Which header the shell shows above the page (SPEC.md section 2): full, or logo and name only. */
export type HeaderVariant = 'full' | 'compact';
/** The footer under the page (SPEC.md section 1): the default one, or the sign-up page's lighter one. */
export type FooterVariant = 'default' | 'signup';

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
  remote: RemoteName;
  module: string;
  header: HeaderVariant;
  footer: FooterVariant;
  /** Hands the page's remote, module and props to `use`, so a caller renders it without casts. */
  slot<T>(use: SlotVisitor<T>): T;
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
  header?: HeaderVariant;
  footer?: FooterVariant;
}): Page<P> & { key: K } {
  const { key, path, remote, module, props, header = 'full', footer = 'default' } = def;
  return {
    key,
    path,
    remote,
    module,
    header,
    footer,
    href: (...params) => {
      const values: Partial<Record<string, string>> = params[0] ?? {};
      return path.replace(/:(\w+)/g, (_match, name: string) => encodeURIComponent(values[name] ?? ''));
    },
    slot: (use) => use(remote, module, props),
  };
}

/**
 * Every page of the product (SPEC.md section 2): its path, the remote and exposed module that
 * render it, and the header and footer around it. The shell's routes, the remotes' standalone
 * routes, the header's compact pages and every link come from here; adding a page is one entry
 * here plus its module in the owning remote's `exposes/` folder.
 */
export const PAGES = {
  home: page({ key: 'home', path: '/', remote: 'media', module: 'EventsPage', props: {} }),
  events: page({ key: 'events', path: '/events', remote: 'media', module: 'EventsPage', props: {} }),
  event: page({ key: 'event', path: '/event/:eventIdentifier', remote: 'media', module: 'EventPage', props: {} }),
  community: page({ key: 'community', path: '/community', remote: 'media', module: 'CommunityPage', props: {} }),
  cart: page({ key: 'cart', path: '/cart', remote: 'media', module: 'CartPage', props: {} }),
  eventOrder: page({
    key: 'eventOrder',
    path: '/eventorder/:orderId',
    remote: 'eventOrder',
    module: 'EventOrderPage',
    props: {},
  }),
  login: page({
    key: 'login',
    path: '/user/login',
    remote: 'account',
    module: 'LoginPage',
    props: {},
    header: 'compact',
  }),
  signup: page({
    key: 'signup',
    path: '/user/signup',
    remote: 'account',
    module: 'SignupPage',
    props: {},
    header: 'compact',
    footer: 'signup',
  }),
  profile: page({ key: 'profile', path: '/user/me', remote: 'account', module: 'ProfilePage', props: {} }),
  orders: page({ key: 'orders', path: '/user/orders', remote: 'account', module: 'OrdersPage', props: {} }),
  myEvents: page({ key: 'myEvents', path: '/user/events', remote: 'account', module: 'MyEventsPage', props: {} }),
  mediaPackages: page({
    key: 'mediaPackages',
    path: '/user/mediaPackages',
    remote: 'account',
    module: 'MediaPackagesPage',
    props: {},
  }),
  discountCodes: page({
    key: 'discountCodes',
    path: '/user/discountCodes',
    remote: 'account',
    module: 'DiscountCodesPage',
    props: {},
  }),
  // react-router ranks the static /user/* paths above this one.
  creator: page({ key: 'creator', path: '/user/:profileName', remote: 'media', module: 'CreatorPage', props: {} }),
  settings: page({ key: 'settings', path: '/settings/general', remote: 'account', module: 'SettingsPage', props: {} }),
  faq: page({ key: 'faq', path: '/faq', remote: 'account', module: 'FaqPage', props: {} }),
  terms: page({
    key: 'terms',
    path: '/legal/terms-of-service',
    remote: 'account',
    module: 'LegalPage',
    props: { document: 'terms-of-service' },
    header: 'compact',
  }),
  privacy: page({
    key: 'privacy',
    path: '/legal/privacy-policy',
    remote: 'account',
    module: 'LegalPage',
    props: { document: 'privacy-policy' },
    header: 'compact',
  }),
  cookies: page({
    key: 'cookies',
    path: '/legal/cookie-policy',
    remote: 'account',
    module: 'LegalPage',
    props: { document: 'cookie-policy' },
    header: 'compact',
  }),
};

export type PageKey = keyof typeof PAGES;
export const PAGE_LIST: readonly (PageRoute & { key: PageKey })[] = Object.values(PAGES);

/** The pages a remote renders, e.g. for its standalone development routes. */
export const pagesOf = (remote: RemoteName) => PAGE_LIST.filter((p) => p.remote === remote);
