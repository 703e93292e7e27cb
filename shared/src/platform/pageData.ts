import { pageCall } from '../api/calls.js';

/**
 * The API calls pages render from, each defined once: a page's loader (PAGES) names it for the
 * page server and the shell's prefetch, and the page's component reads it (`pageQuery`), so the
 * two send the same request under the same cache key and cannot disagree.
 */
export const PAGE_DATA = {
  events: () => pageCall('getEvents', { limit: 50 }),
  posts: () => pageCall('getPosts', { limit: 50 }),
  event: (eventIdentifier: string) => pageCall('getEvent', { eventIdentifier }),
  creator: (profileName: string) => pageCall('getProfile', { profileName }),
  search: (query: string) => pageCall('search', { query }),
  eventOrder: (orderId: string, sharingId: string | undefined) =>
    pageCall('getEventOrderDetails', { orderId, sharingId }),
  ownProfile: () => pageCall('getOwnProfile'),
  eventOrders: () => pageCall('getEventOrders'),
  myEvents: () => pageCall('getMyEvents'),
  mediaPackages: () => pageCall('getMediaPackages'),
  discountCodes: () => pageCall('getDiscountCodes'),
  purchases: () => pageCall('getPurchases'),
  sales: () => pageCall('getSales'),
  purchase: (purchaseNumber: string) => pageCall('getPurchase', { purchaseNumber }),
} as const;

/** What a search page (`/search?q=`) looks for: `q` trimmed, at most the 100 characters the API takes. */
export const searchQueryOf = (search: URLSearchParams): string => (search.get('q') ?? '').trim().slice(0, 100);
