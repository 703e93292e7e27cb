import { useEffect, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { PAGE_LIST, prefetchPageCalls, useLocation, type PageRoute } from '@marketplace/shared';
import { RemoteSlot } from '../remotes/RemoteSlot.js';

/**
 * Every page of the platform table becomes a route of the shell (SPEC.md section 2); a remote is
 * downloaded only when one of its pages is visited. The header slot is on every page.
 */
export const ROUTES: readonly PageRoute[] = PAGE_LIST;

/**
 * The page's loader in the browser: on a client navigation its calls start as its remote's code
 * starts loading, not once that code has rendered and asked. On the first load they are the
 * server's answers, fresh in the cache, and nothing is asked.
 */
function PageData({ page }: { page: PageRoute }) {
  const client = useQueryClient();
  const { pathname, search } = useLocation();
  useEffect(() => prefetchPageCalls(client, page.calls({ pathname, search })), [client, page, pathname, search]);
  return null;
}

export function routeElement(page: PageRoute): ReactNode {
  // One slot instance per route: a page that failed must not be reused for the next route's module.
  return (
    <>
      <PageData page={page} />
      {page.slot((remote, module, props) => (
        <RemoteSlot key={page.path} remote={remote} module={module} label="This page" props={props} />
      ))}
    </>
  );
}
