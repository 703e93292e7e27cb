import { z } from 'zod';
import type { SearchResult } from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import { notFound } from '../http/errors.js';
import { fields, noNul, type Router } from '../http/route.js';
import type { Services } from '../services.js';
import { contentViews } from '../views/content.js';
import { userViews } from '../views/users.js';

const DEFAULT_LIST_LIMIT = 12;
const SEARCH_LIMIT_PER_KIND = 5;

/** Public browsing: search, events, an event's items, community posts, a creator's page. */
export function registerBrowseRoutes(r: Router, { repos }: Services): void {
  const content = contentViews(repos.urls);
  const users = userViews(repos.urls);
  r.visitor(
    'search',
    z.object({ query: noNul(z.string().max(100, 'must be at most 100 characters')) }),
    async ({ query }) => {
      const q = query.trim();
      if (!q) return { searchResults: [] };
      // LIKE wildcards typed by the user are matched literally.
      const pattern = `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      const searchResults: SearchResult[] = [
        ...(await repos.users.search(pattern, SEARCH_LIMIT_PER_KIND)).map((p) => ({
          name: p.username,
          iconUrl: repos.urls.media(p.profilePicturePath),
          urlLink: PAGES.creator.href({ profileName: p.profileName }),
        })),
        ...(await repos.content.searchEvents(pattern, SEARCH_LIMIT_PER_KIND)).map((e) => ({
          name: e.name,
          iconUrl: content.coverUrl(e.cover),
          urlLink: PAGES.event.href({ eventIdentifier: e.identifier }),
        })),
        // A photo or video opens in the viewer of the gallery that shows it (`?photo=`).
        ...(await repos.content.searchItems(pattern, SEARCH_LIMIT_PER_KIND)).map((item) => ({
          name: item.name,
          iconUrl: content.thumbnailUrl(item),
          urlLink: `${
            item.eventIdentifier
              ? PAGES.event.href({ eventIdentifier: item.eventIdentifier })
              : PAGES.creator.href({ profileName: item.ownerProfileName })
          }?${new URLSearchParams({ photo: item.identifier }).toString()}`,
        })),
      ];
      return { searchResults };
    },
  );

  r.visitor(
    'getEvents',
    z.object({ pageNo: fields.pageNo(), limit: fields.limit() }),
    async ({ pageNo = 0, limit = DEFAULT_LIST_LIMIT }) => {
      const { items, more } = await repos.content.events(pageNo, limit);
      return { events: items.map(content.event), more };
    },
  );

  r.visitor('getEvent', z.object({ eventIdentifier: fields.text(100) }), async ({ eventIdentifier }, { user }) => {
    // A draft is its organizer's alone: to anyone else it is not there, as an event that never was.
    const event = await repos.content.event(eventIdentifier, user);
    if (!event) throw notFound('Event');
    return {
      event: content.event(event),
      contentItems: content.contentItems(await repos.content.itemsOfEvent(eventIdentifier, user), user),
    };
  });

  r.visitor(
    'getPosts',
    z.object({ pageNo: fields.pageNo(), limit: fields.limit() }),
    async ({ pageNo = 0, limit = DEFAULT_LIST_LIMIT }, { user }) => {
      const { items, more } = await repos.content.posts(pageNo, limit, user);
      return { posts: items.map((post) => content.post(post, user)), more };
    },
  );

  r.visitor('getProfile', z.object({ profileName: fields.text(30) }), async ({ profileName }, { user }) => {
    const owner = await repos.users.byProfileName(profileName);
    if (!owner) throw notFound('Profile');
    return {
      profile: users.publicProfile(owner, await repos.users.profileDetails(owner.id)),
      contentItems: content.contentItems(await repos.content.itemsOwnedBy(owner.id, user), user),
      packages: await repos.offers.mediaPackages(owner.id),
    };
  });
}
