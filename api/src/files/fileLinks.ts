import { type ContentFileLinks, contentFileLinks } from './contentFileLinks.js';
import { type OrderFileLinks, orderFileLinks } from './orderFileLinks.js';

/** The files host's signed links to private files: an order's, and a photo for sale's unmarked pictures. */
export interface FileLinks {
  order: OrderFileLinks;
  content: ContentFileLinks;
}

/** Every kind of link, keyed by the operator token: what one instance issues, every instance checks. */
export const fileLinks = (secret: string): FileLinks => ({
  order: orderFileLinks(secret),
  content: contentFileLinks(secret),
});
