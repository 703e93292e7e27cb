import { FILES_PATHS } from '@marketplace/shared/contract';
import type { FileLinks } from '../files/fileLinks.js';
import { deliverablesGrant, ORDER_DELIVERABLES_PATH } from '../files/orderFileLinks.js';

/** The files host's URLs, built in one place from its public origin. */
export interface FileUrls {
  /** A stored file's public URL (images, HLS), or null when there is no file. */
  media(relativePath: string | null): string | null;
  /** The download endpoint's URL for a stored file, saved under `fileName`. */
  download(relativePath: string, fileName: string): string;
  /** An upload target's URL on the API (local store); like a presigned URL, the token in it is the permission. */
  upload(targetIdentifier: string, token: string): string;
  /**
   * A short-lived signed link to an order target's file (files/orderFileLinks.ts): one the media
   * job made (`file`, e.g. '640.webp'), or the original (null), inline or as an attachment.
   */
  orderFile(targetIdentifier: string, file: string | null, download: boolean, notAfter?: number): string;
  /**
   * A short-lived signed link to one of an item for sale's private files (files/contentFileLinks.ts),
   * e.g. '1920.jpg' or 'master.m3u8', lasting no longer than `notAfter` (epoch s) when given.
   */
  contentFile(identifier: string, file: string, notAfter?: number): string;
  /**
   * A buyer's link to the original of an item they bought, or (null) to a ZIP of all of them
   * (files/purchaseLinks.ts): refused to any other account, and checked against what they own when used.
   */
  purchased(userId: number, identifier: string | null): string;
  /** A party's short-lived link to a ZIP of an order's deliverables (files/orderDownloads.ts). */
  orderDeliverables(orderId: string): string;
}

export function fileUrls(filesOrigin: string, links: FileLinks): FileUrls {
  return {
    media: (relativePath) =>
      relativePath
        ? `${filesOrigin}${FILES_PATHS.media}/${relativePath.split('/').map(encodeURIComponent).join('/')}`
        : null,
    download: (filePath, fileName) =>
      `${filesOrigin}${FILES_PATHS.download}?${new URLSearchParams({ filePath, fileName }).toString()}`,
    orderFile: (targetIdentifier, file, download, notAfter) =>
      `${filesOrigin}${FILES_PATHS.orderFile}/${encodeURIComponent(targetIdentifier)}?${links.order.grant({ targetIdentifier, file, download }, Date.now(), notAfter).toString()}`,
    contentFile: (identifier, file, notAfter) =>
      `${filesOrigin}${links.content.path(identifier, file, Date.now(), notAfter)}`,
    purchased: (userId, identifier) => links.purchased.url(filesOrigin, userId, identifier),
    orderDeliverables: (orderId) =>
      `${filesOrigin}${ORDER_DELIVERABLES_PATH}/${encodeURIComponent(orderId)}?${links.order.grant(deliverablesGrant(orderId)).toString()}`,
    upload: (targetIdentifier, token) =>
      `${filesOrigin}${FILES_PATHS.upload}/${targetIdentifier}?${new URLSearchParams({ token }).toString()}`,
  };
}
