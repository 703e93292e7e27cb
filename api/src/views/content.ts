import type { ContentItem, EventSummary, OwnEvent, Post } from '@marketplace/shared/contract';
import type { SessionUser } from '../http/env.js';
import {
  type Derivative,
  largestJpeg,
  MASTER_PLAYLIST,
  pictureOf,
  thumbnailJpeg,
  unmarkedOf,
} from '../media/derivatives.js';
import { isPrivateKey } from '../files/paths.js';
import { ORIGINAL_FILE } from '../files/contentFileLinks.js';
import type { EventCover, EventRecord, ItemRecord, SeenItem } from '../repositories/content/records.js';
import type { PostRecord } from '../repositories/content/posts.js';
import type { FileUrls } from '../repositories/urls.js';
import { userViews } from './users.js';

/** Events, photos, videos and posts as the contract shows them: their files by public URL or signed link. */
export function contentViews(urls: FileUrls) {
  const users = userViews(urls);

  /** Public media's files are served at their immutable /media URLs. */
  const publicUrl = (d: Derivative) => urls.media(d.key) ?? '';

  /**
   * What a page shows of an item: the files the media job made, once it made them; before that,
   * a seeded file served as it is (the API's tests), or nothing while the source waits where it is
   * never served (`sources/`): the item is processing. A photo for sale is its watermarked preview,
   * but to its owner and its buyers (`unmarked`): its unmarked pictures, by signed links.
   */
  const shownFiles = (item: ItemRecord, unmarked: boolean) => {
    const { media } = item;
    if (media) {
      const clean = unmarked ? unmarkedOf(media) : null;
      const shown = clean ?? media;
      const urlOf = clean ? (d: Derivative) => urls.contentFile(item.identifier, d.name) : publicUrl;
      const largest = largestJpeg(shown);
      const thumbnail = thumbnailJpeg(shown);
      const master = media.video?.files.find((f) => f.name === MASTER_PLAYLIST);
      // A video for sale's ladder is private: its owner and buyers play it by a signed link, and
      // everyone else is shown its poster's preview (locked). One made before previews were has
      // a public ladder until its job runs again: shown to them only, meanwhile.
      const madeBefore = master !== undefined && item.forSale && !media.unmarked;
      const ladder = !master
        ? null
        : !isPrivateKey(master.key) && (unmarked || !madeBefore)
          ? (urls.media(master.key) ?? '')
          : clean
            ? urls.contentFile(item.identifier, master.name)
            : '';
      return {
        contentUrl: ladder ?? (largest ? urlOf(largest) : ''),
        locked: ladder === '',
        thumbnailUrl: thumbnail ? urlOf(thumbnail) : null,
        width: media.width,
        height: media.height,
        // A key /download serves, so a public one (of a photo for sale, the preview's) whoever reads it.
        filePath: media.video ? '' : (largestJpeg(media)?.key ?? ''),
        image: pictureOf(shown, urlOf),
        processing: false,
      };
    }
    const waiting = isPrivateKey(item.filePath);
    return {
      contentUrl: waiting ? '' : (urls.media(item.streamPath ?? item.filePath) ?? ''),
      thumbnailUrl: waiting ? null : urls.media(item.thumbnailPath),
      width: item.width,
      height: item.height,
      filePath: waiting ? '' : item.filePath,
      image: null,
      locked: false,
      processing: waiting,
    };
  };

  /** An event's cover: the pictures made of it; before that, a seeded one, or none while its source waits in `sources/`. */
  const shownCover = (cover: EventCover) => {
    if (cover.media)
      return { coverUrl: urls.media(largestJpeg(cover.media)?.key ?? null), cover: pictureOf(cover.media, publicUrl) };
    return {
      coverUrl: cover.path && !isPrivateKey(cover.path) ? urls.media(cover.path) : null,
      cover: null,
    };
  };

  /** An item as `viewer` sees it: one for sale unmarked to its owner and to whoever bought it. */
  const contentItem = (item: SeenItem, viewer: SessionUser | null): ContentItem => {
    const owns = item.ownerId === viewer?.id;
    // The original: the owner's by a link to the item's file; a buyer's by a link bound to the
    // buyer, which another account's session cannot use and which is checked against what they own.
    const originalUrl = owns
      ? urls.contentFile(item.identifier, ORIGINAL_FILE)
      : viewer && item.viewerBought
        ? urls.purchased(viewer.id, item.identifier)
        : null;
    return {
      name: item.name,
      contentIdentifier: item.identifier,
      contentType: item.contentType,
      metadata: { 'Content-Type': item.contentType },
      ...shownFiles(item, owns || item.viewerBought),
      originalUrl,
      filename: item.filename,
      eventName: item.eventName,
      eventIdentifier: item.eventIdentifier,
      photographer: item.ownerUsername,
      profileName: item.ownerProfileName,
      iconUrl: urls.media(item.ownerPicturePath),
      // Nobody buys their own work.
      canAddToCart: item.forSale && item.ownerId !== viewer?.id,
      priceCents: item.priceCents,
      currency: item.currency,
    };
  };

  const event = (record: EventRecord): EventSummary => ({
    eventIdentifier: record.identifier,
    name: record.name,
    description: record.description,
    location: record.location,
    startsAt: record.startsAt,
    ...shownCover(record.cover),
    organizer: record.organizer,
    organizerProfileName: record.organizerProfileName,
    itemCount: record.itemCount,
  });

  return {
    contentItem,
    contentItems: (items: readonly SeenItem[], viewer: SessionUser | null) =>
      items.map((item) => contentItem(item, viewer)),
    event,

    /** An event as its organizer sees it: processing its cover while an upload waits for its media job, unless told. */
    ownEvent: (record: EventRecord, coverProcessing = record.coverSource !== null): OwnEvent => ({
      ...event(record),
      published: record.published,
      coverProcessing,
    }),

    /** The cover URL the events list and the event page show (the media pipeline's, never a waiting source). */
    coverUrl: (cover: EventCover) => shownCover(cover).coverUrl,

    /** The thumbnail a visitor's gallery shows of an item (a preview of one for sale). */
    thumbnailUrl: (item: ItemRecord) => shownFiles(item, false).thumbnailUrl,

    post: (post: PostRecord, viewer: SessionUser | null): Post => ({
      id: post.id,
      author: users.chatEntry(post.author),
      text: post.text,
      createdAt: post.createdAt,
      contentItem: post.item && contentItem(post.item, viewer),
    }),
  };
}
