import type { ExposedComponents } from '@marketplace/shared';
import Header from './exposes/Header.js';
import NotificationsPage from './exposes/NotificationsPage.js';

/**
 * Every module this remote exposes (its `exposes/` folder, which the build preset publishes as
 * `./Name`). Typed as the platform's contract for `header`: a module missing, extra or with other
 * props fails the type check; `exposed.test.ts` checks the folder holds these files and no other.
 */
export const EXPOSED = {
  Header,
  NotificationsPage,
} satisfies ExposedComponents<'header'>;
