import { type ContentFileLinks, contentFileLinks } from './contentFileLinks.js';
import { type OrderFileLinks, orderFileLinks } from './orderFileLinks.js';
import { type PurchaseDownloadLinks, purchaseDownloadLinks } from './purchaseLinks.js';

/**
 * The files host's signed links to private files: an order's, an item for sale's unmarked
 * pictures and ladder (and its original, for its owner), and a buyer's originals (bound to the buyer).
 */
export interface FileLinks {
  order: OrderFileLinks;
  content: ContentFileLinks;
  purchased: PurchaseDownloadLinks;
}

/** Every kind of link, keyed by FILE_LINK_KEY (config.ts fileLinkKey): what one instance issues, every instance checks. */
export const fileLinks = (secret: string): FileLinks => ({
  order: orderFileLinks(secret),
  content: contentFileLinks(secret),
  purchased: purchaseDownloadLinks(secret),
});
