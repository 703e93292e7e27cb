import type { ReactNode } from 'react';
import type { ExposedName, ExposedProps, LegalDocument, RemoteName } from '@marketplace/shared';
import { RemoteSlot } from '../remotes/RemoteSlot.js';

interface RouteEntry<R extends RemoteName = RemoteName> {
  path: string;
  remote: R;
  module: ExposedName<R>;
  props?: ExposedProps<R, ExposedName<R>>;
}

const page = <R extends RemoteName>(path: string, remote: R, module: ExposedName<R>, props?: ExposedProps<R, ExposedName<R>>): RouteEntry =>
  ({ path, remote, module, props }) as RouteEntry;

const legal = (document: LegalDocument) => page(`/legal/${document}`, 'account', 'LegalPage', { document } as never);

/**
 * Which remote owns each route (SPEC.md section 2). A remote is downloaded only when one of
 * its routes is visited; the header slot is on every page.
 */
export const ROUTES: readonly RouteEntry[] = [
  page('/', 'media', 'EventsPage'),
  page('/events', 'media', 'EventsPage'),
  page('/event/:eventIdentifier', 'media', 'EventPage'),
  page('/community', 'media', 'CommunityPage'),
  page('/cart', 'media', 'CartPage'),
  page('/eventorder/:orderId', 'eventOrder', 'EventOrderPage'),
  page('/user/login', 'account', 'LoginPage'),
  page('/user/signup', 'account', 'SignupPage'),
  page('/user/me', 'account', 'ProfilePage'),
  page('/user/orders', 'account', 'OrdersPage'),
  page('/user/events', 'account', 'MyEventsPage'),
  page('/user/mediaPackages', 'account', 'MediaPackagesPage'),
  page('/user/discountCodes', 'account', 'DiscountCodesPage'),
  // After the fixed /user/* routes: react-router ranks static segments above :profileName.
  page('/user/:profileName', 'media', 'CreatorPage'),
  page('/settings/general', 'account', 'SettingsPage'),
  page('/faq', 'account', 'FaqPage'),
  legal('terms-of-service'),
  legal('privacy-policy'),
  legal('cookie-policy'),
];

export function routeElement(entry: RouteEntry): ReactNode {
  // One slot instance per route: a page that failed must not be reused for the next route's module.
  return <RemoteSlot key={entry.path} remote={entry.remote} module={entry.module as never} label="This page" props={(entry.props ?? {}) as never} />;
}
