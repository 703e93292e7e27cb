import type { ReactNode } from 'react';
import { PAGE_LIST, type PageRoute } from '@marketplace/shared';
import { RemoteSlot } from '../remotes/RemoteSlot.js';

/**
 * Every page of the platform table becomes a route of the shell (SPEC.md section 2); a remote is
 * downloaded only when one of its pages is visited. The header slot is on every page.
 */
export const ROUTES: readonly PageRoute[] = PAGE_LIST;

export function routeElement(page: PageRoute): ReactNode {
  // One slot instance per route: a page that failed must not be reused for the next route's module.
  return page.slot((remote, module, props) => (
    <RemoteSlot key={page.path} remote={remote} module={module} label="This page" props={props} />
  ));
}
