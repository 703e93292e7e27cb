import { createElement, type ComponentType, type ReactNode } from 'react';
import type { ExposedComponents } from '../exposes.js';
import { pagesOf } from '../platform/pages.js';
import type { RemoteName } from '../platform/remotes.js';
import { Route } from '../router.js';

/**
 * The routes of a remote's own pages, from the platform table, for its standalone development
 * build: the same paths the shell gives them, rendering the remote's exposed modules directly.
 */
export function pageRoutes<R extends RemoteName>(remote: R, modules: ExposedComponents<R>): ReactNode[] {
  // pagesOf(remote) holds only this remote's pages, so each page's module is a key of `modules`
  // and its props are that module's; the type system cannot carry that through the filter, hence
  // this one widening.
  const byName = modules as unknown as Partial<Record<string, ComponentType<object>>>;
  return pagesOf(remote).map((page) =>
    page.slot((_remote, module, props) => {
      const component = byName[module];
      return (
        <Route
          key={page.path}
          path={page.path}
          element={component ? createElement(component, props as object) : null}
        />
      );
    }),
  );
}
