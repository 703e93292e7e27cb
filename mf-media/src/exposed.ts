import type { ExposedComponents } from '@marketplace/shared';
import CartPage from './exposes/CartPage.js';
import CommunityPage from './exposes/CommunityPage.js';
import CreatorPage from './exposes/CreatorPage.js';
import EventPage from './exposes/EventPage.js';
import EventsPage from './exposes/EventsPage.js';
import SearchPage from './exposes/SearchPage.js';

/**
 * Every module this remote exposes (its `exposes/` folder, which the build preset publishes as
 * `./Name`). Typed as the platform's contract for `media`: a module missing, extra or with other
 * props fails the type check; `exposed.test.ts` checks the folder holds these files and no other.
 */
export const EXPOSED = {
  CartPage,
  CommunityPage,
  CreatorPage,
  EventPage,
  EventsPage,
  SearchPage,
} satisfies ExposedComponents<'media'>;
