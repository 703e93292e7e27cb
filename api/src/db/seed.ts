import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { EventOrderStatus, OrderInfoStatus, OrderQuote, Role } from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import { hashPassword } from '../auth/passwords.js';
import type { Insertable } from 'kysely';
import { type Database, type Db, inLockedTransaction, SEED_LOCK } from './database.js';
import type { Schema } from './schema.js';
import { contentTypeOf } from '../files/paths.js';
import type { FileStore } from '../files/fileStore.js';
import { cameraPhoto, syntheticClip } from '../media/clips.js';
import { gradientPng } from './png.js';

/** Every demo account shares this password (README "Demo accounts"). */
export const DEMO_PASSWORD = 'demo-pass-2026';

interface DemoUser {
  profileName: string;
  username: string;
  roles: Role[];
  bio: string;
}

/** One account per role combination, plus community members so clara has more than 10 conversations. */
export const DEMO_USERS: readonly DemoUser[] = [
  { profileName: 'nora', username: 'Nora Newcomer', roles: [], bio: 'Just joined; has not picked a role yet.' },
  { profileName: 'mia', username: 'Mia Lens', roles: ['MEDIA'], bio: 'Concert and festival photographer.' },
  { profileName: 'dave', username: 'Dave Wheels', roles: ['DRIVER'], bio: 'Drives crews and gear to events.' },
  { profileName: 'olga', username: 'Olga Events', roles: ['EVENT_ORGANIZER'], bio: 'Organises music nights and runs.' },
  {
    profileName: 'max',
    username: 'Max Multi',
    roles: ['EVENT_ORGANIZER', 'MEDIA', 'DRIVER'],
    bio: 'Organiser, shooter and driver.',
  },
  { profileName: 'clara', username: 'Clara Client', roles: ['DRIVER'], bio: 'Orders event coverage for her company.' },
  { profileName: 'leo', username: 'Leo Frames', roles: ['MEDIA'], bio: 'Street and sports photography.' },
  { profileName: 'ivy', username: 'Ivy Stills', roles: ['MEDIA'], bio: 'Portraits at events.' },
  { profileName: 'sam', username: 'Sam Roads', roles: ['DRIVER'], bio: 'Night shifts, any distance.' },
  { profileName: 'zoe', username: 'Zoe Tracks', roles: ['EVENT_ORGANIZER'], bio: 'Runs the city marathon.' },
  { profileName: 'ben', username: 'Ben Shutter', roles: ['MEDIA', 'DRIVER'], bio: 'Shoots and drives.' },
  { profileName: 'ana', username: 'Ana Focus', roles: ['MEDIA'], bio: 'Video first.' },
  { profileName: 'tom', username: 'Tom Crowd', roles: ['DRIVER'], bio: 'Loves a crowd.' },
];

interface DemoEvent {
  identifier: string;
  name: string;
  description: string;
  location: string;
  daysFromNow: number;
  organizer: string;
  /** [owner, name, width, height] of photos; videos are added by `videos`. */
  photos: [string, string, number, number][];
  videos: [string, string][];
}

const EVENTS: readonly DemoEvent[] = [
  {
    identifier: 'summer-jazz-night-2026',
    name: 'Summer Jazz Night',
    description: 'An open-air jazz evening by the river with six bands.',
    location: 'Riverside Park, Stage B',
    daysFromNow: -120,
    organizer: 'olga',
    photos: [
      ['mia', 'Stage lights', 1200, 800],
      ['mia', 'Saxophone solo', 800, 1200],
      ['mia', 'Crowd at dusk', 1600, 900],
      ['mia', 'Drummer close-up', 1024, 1024],
      ['leo', 'Backstage', 640, 480],
      ['mia', 'Encore', 1200, 800],
    ],
    videos: [['mia', 'Opening set clip']],
  },
  {
    identifier: 'city-marathon-2026',
    name: 'City Marathon',
    description: 'Forty-two kilometres through the old town and along the harbour.',
    location: 'Harbour Front',
    daysFromNow: -40,
    organizer: 'zoe',
    photos: [
      ['max', 'Start line', 1600, 900],
      ['max', 'Kilometre 30', 1200, 800],
      ['ivy', 'Finish portrait', 800, 1200],
      ['max', 'Medals', 1024, 768],
      ['ben', 'Water station', 1200, 800],
    ],
    videos: [['max', 'Finish line sprint']],
  },
  {
    identifier: 'tech-meetup-november',
    name: 'Tech Meetup November',
    description: 'Talks on web platforms, followed by pizza.',
    location: 'Old Library Hall',
    daysFromNow: -5,
    organizer: 'max',
    photos: [
      ['mia', 'Keynote', 1200, 800],
      ['leo', 'Q&A', 1200, 800],
      ['ana', 'Pizza break', 800, 800],
    ],
    videos: [['ana', 'Lightning talk']],
  },
  {
    identifier: 'winter-gala-2026',
    name: 'Winter Gala',
    description: 'The annual winter gala. Photos arrive after the event.',
    location: 'Grand Hotel Ballroom',
    daysFromNow: 30,
    organizer: 'olga',
    photos: [],
    videos: [],
  },
];

/** Clara's orders with mia (photographer): one per status, plus declined, deleted, cancelled. */
const ORDERS: readonly (readonly [EventOrderStatus, OrderInfoStatus | null, boolean, string])[] = [
  ['ORDER_REQUEST', null, false, 'Company kick-off'],
  ['REQUIREMENTS_NEEDED', 'AWAITING_APPROVAL', false, 'Product launch'],
  ['AWAITING_APPROVAL', 'AWAITING_APPROVAL', false, 'Team offsite'],
  ['APPROVED', null, false, 'Summer party'],
  ['PENDING_FULFILLMENTS', 'SECURED', false, 'Charity run'],
  ['DELIVERED', 'PUBLISHED', false, 'Annual awards'],
  ['DECLINED', null, false, 'Garden wedding'],
  ['PENDING_FULFILLMENTS', 'SECURED', true, 'Board dinner'],
  ['AWAITING_APPROVAL', 'CANCELLED', false, 'Spring fair'],
];
const orderIdOf = (index: number) => `ord-${1001 + index}`;
/** The statuses an order reaches only with a quote. */
const QUOTED: readonly EventOrderStatus[] = ['AWAITING_APPROVAL', 'APPROVED', 'PENDING_FULFILLMENTS', 'DELIVERED'];
/** The delivered order has two uploads already. */
const DELIVERED_ORDER = orderIdOf(ORDERS.findIndex(([status]) => status === 'DELIVERED'));

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

/** A file the demo rows name, and how to make it. */
interface DemoFile {
  key: string;
  data: () => Buffer | Promise<Buffer>;
  /** Generated files already in the store are kept (generating them is what takes the time). */
  keep: boolean;
}

interface DemoItem {
  /** Numbers the event's photos and videos across all events: their slugs, ages and prices follow it. */
  itemNo: number;
  slug: string;
  owner: string;
  name: string;
  file: string;
  thumb: string | null;
}

/** A demo photo's size as a camera takes it: its long side 4000 pixels (a 1200 x 800 shape becomes 4000 x 2667). */
const cameraSize = (width: number, height: number) => {
  const scale = 4000 / Math.max(width, height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
};

/** The demo's video sources: one clip, made once by ffmpeg and copied to each (6 s of 720p). */
let demoClip: Buffer | undefined;
const clip = () => (demoClip ??= syntheticClip({ width: 1280, height: 720, seconds: 6 }));

/**
 * The demo's media files, and the keys the rows name them by: known before any row exists, so
 * they are written before the rows (see seedDemo). With `cameraSources`, the photos, covers and
 * videos are what a photographer uploads (camera-size JPEGs with GPS, an MP4 made by ffmpeg),
 * kept under `sources/` (never served) for the media pipeline to make what pages show; without,
 * small pictures and a fixture HLS stream served as they are (the API's own tests, which need no
 * pipeline).
 */
function demoMedia(cameraSources: boolean) {
  const files: DemoFile[] = [];
  const generated = (key: string, data: DemoFile['data']) => {
    files.push({ key, data, keep: true });
    return key;
  };
  const copied = (fixture: string, key: string) => {
    files.push({ key, data: () => readFileSync(join(fixtures, fixture)), keep: false });
    return key;
  };
  // nora has no picture so the generic fallback shows. With camera sources, a picture is a phone's
  // 4:5 photo, waiting under `sources/` for the pipeline (the user shows no picture until then).
  const avatars = new Map(
    DEMO_USERS.flatMap((u, i) => {
      if (u.profileName === 'nora') return [];
      const seed = 100 + i;
      return [
        [
          u.profileName,
          cameraSources
            ? {
                shown: null,
                source: generated(`sources/avatars/${u.profileName}.jpg`, () =>
                  cameraPhoto({ width: 1080, height: 1350, seed }),
                ),
              }
            : { shown: generated(`avatars/${u.profileName}.png`, () => gradientPng(128, 128, seed)), source: null },
        ] as const,
      ];
    }),
  );
  let imageSeed = 1;
  let itemNo = 0;
  const events = EVENTS.map((e) => {
    const coverSeed = imageSeed++;
    const cover = cameraSources
      ? generated(`sources/events/${e.identifier}/cover.jpg`, () =>
          cameraPhoto({ width: 4000, height: 2000, seed: coverSeed }),
        )
      : generated(`events/${e.identifier}/cover.png`, () => gradientPng(800, 400, coverSeed));
    const photos = e.photos.map(([owner, name, shapeWidth, shapeHeight]) => {
      itemNo++;
      const slug = `photo-${String(itemNo).padStart(3, '0')}`;
      const s = imageSeed++;
      if (cameraSources) {
        const { width, height } = cameraSize(shapeWidth, shapeHeight);
        const file = generated(`sources/events/${e.identifier}/${slug}.jpg`, () =>
          cameraPhoto({ width, height, seed: s }),
        );
        return { itemNo, slug, owner, name, file, thumb: null, width, height, contentType: 'image/jpeg' };
      }
      const [width, height] = [shapeWidth, shapeHeight];
      const item: DemoItem = {
        itemNo,
        slug,
        owner,
        name,
        file: generated(`events/${e.identifier}/${slug}.png`, () => gradientPng(width, height, s)),
        thumb: generated(`events/${e.identifier}/${slug}-thumb.png`, () =>
          gradientPng(320, Math.round((320 * height) / width), s),
        ),
      };
      return { ...item, width, height, contentType: 'image/png' };
    });
    const videos = e.videos.map(([owner, name]) => {
      itemNo++;
      const slug = `video-${String(itemNo).padStart(3, '0')}`;
      if (cameraSources) {
        const file = generated(`sources/videos/${slug}.mp4`, clip);
        return { itemNo, slug, owner, name, file, thumb: null, stream: null, width: 1280, height: 720 };
      }
      const dir = `videos/${slug}`;
      const stream = copied('hls/playlist.m3u8', `${dir}/playlist.m3u8`);
      copied('hls/segment0.ts', `${dir}/segment0.ts`);
      copied('hls/segment1.ts', `${dir}/segment1.ts`);
      const s = imageSeed++;
      const item: DemoItem = {
        itemNo,
        slug,
        owner,
        name,
        file: copied('video.mp4', `${dir}/${slug}.mp4`),
        thumb: generated(`${dir}/thumb.png`, () => gradientPng(320, 180, s)),
      };
      return { ...item, stream, width: 320, height: 180 };
    });
    return { event: e, cover, photos, videos };
  });
  const uploads = ([1, 2] as const).map((n) => {
    const identifier = `tgt-seed-${n}`;
    const file = generated(`uploads/${DELIVERED_ORDER}/${identifier}-reference-${n}.png`, () =>
      gradientPng(640, 480, 300 + n),
    );
    return { n, identifier, file };
  });
  // What the photographer delivered on that order: camera photos (GPS and all) for the pipeline to
  // process like any upload; without camera sources, small pictures served as they are.
  const deliverables = ([1, 2, 3] as const).map((n) => {
    const identifier = `tgt-seed-d${n}`;
    const seed = 400 + n;
    const file = cameraSources
      ? generated(`orders/${DELIVERED_ORDER}/${identifier}/original.jpg`, () =>
          cameraPhoto({ width: 3000, height: 2000, seed }),
        )
      : generated(`uploads/${DELIVERED_ORDER}/${identifier}-delivered-${n}.png`, () => gradientPng(640, 426, seed));
    return { n, identifier, file, processed: !cameraSources };
  });
  return { files, avatars, events, uploads, deliverables };
}

/** True when the database has never been seeded. */
async function needsSeed(db: Db): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/**
 * Fills an empty database with demo data that exercises every screen (SEED_DEMO=1), and writes
 * the media files it names into the file store (generated images, the HLS fixture). Of instances
 * starting together, one writes the rows: the files first, outside any transaction (generating
 * them takes seconds; two instances writing one write the same bytes), then the rows, in one
 * transaction under SEED_LOCK, if none is there by then. Answers whether this call wrote them.
 */
export async function seedDemo(
  database: Pick<Database, 'db' | 'engine'>,
  files: FileStore,
  { cameraSources = false, now = new Date() }: { cameraSources?: boolean; now?: Date } = {},
): Promise<boolean> {
  if (!(await needsSeed(database.db))) return false;
  const media = demoMedia(cameraSources);
  for (const file of media.files)
    if (!file.keep || (await files.size(file.key)) === undefined)
      await files.put(file.key, await file.data(), contentTypeOf(file.key));
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return inLockedTransaction(database, SEED_LOCK, async (trx) => {
    if (!(await needsSeed(trx))) return false;
    await insertRows(trx, media, passwordHash, now);
    return true;
  });
}

async function insertRows(db: Db, media: ReturnType<typeof demoMedia>, passwordHash: string, now: Date): Promise<void> {
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();

  const ids = new Map<string, number>();
  for (const [i, u] of DEMO_USERS.entries()) {
    const { id } = await db
      .insertInto('users')
      .values({
        profile_name: u.profileName,
        username: u.username,
        email: `${u.profileName}@example.com`,
        password_hash: passwordHash,
        profile_picture: media.avatars.get(u.profileName)?.shown ?? null,
        profile_picture_source: media.avatars.get(u.profileName)?.source ?? null,
        bio: u.bio,
        created_at: at(24 * 400 - i),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set(u.profileName, id);
    if (u.roles.length > 0)
      await db
        .insertInto('user_roles')
        .values(u.roles.map((role) => ({ user_id: id, role })))
        .execute();
  }
  const id = (profileName: string) => {
    const v = ids.get(profileName);
    if (v === undefined) throw new Error(`seed: unknown user ${profileName}`);
    return v;
  };

  type NewItem = Omit<Insertable<Schema['content_items']>, 'id'>;
  const insertItem = async (item: NewItem) =>
    (await db.insertInto('content_items').values(item).returning('id').executeTakeFirstOrThrow()).id;
  const itemIds: number[] = [];
  for (const { event: e, cover, photos, videos } of media.events) {
    const { id: eventId } = await db
      .insertInto('events')
      .values({
        identifier: e.identifier,
        name: e.name,
        description: e.description,
        location: e.location,
        starts_at: at(-24 * e.daysFromNow),
        cover_path: cover,
        organizer_id: id(e.organizer),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const photo of photos)
      itemIds.push(
        await insertItem({
          identifier: `ci-${photo.slug}`,
          event_id: eventId,
          owner_id: id(photo.owner),
          name: photo.name,
          content_type: photo.contentType,
          width: photo.width,
          height: photo.height,
          file_path: photo.file,
          filename: `${photo.slug}.${photo.contentType === 'image/jpeg' ? 'jpg' : 'png'}`,
          stream_path: null,
          thumbnail_path: photo.thumb,
          // Every fifth photo is not for sale, so the viewer's "no Add to cart" case has data.
          for_sale: photo.itemNo % 5 === 0 ? 0 : 1,
          price_cents: 1500,
          created_at: at(200 - photo.itemNo),
        }),
      );
    for (const video of videos)
      itemIds.push(
        await insertItem({
          identifier: `ci-${video.slug}`,
          event_id: eventId,
          owner_id: id(video.owner),
          name: video.name,
          content_type: 'video/mp4',
          width: video.width,
          height: video.height,
          file_path: video.file,
          filename: `${video.slug}.mp4`,
          stream_path: video.stream,
          thumbnail_path: video.thumb,
          for_sale: 1,
          price_cents: 4500,
          created_at: at(200 - video.itemNo),
        }),
      );
  }

  const posts: [string, string, number | null][] = [
    ['mia', 'Jazz night photos are up. The encore was something else.', itemIds[5] ?? null],
    ['olga', 'Winter Gala tickets open next week. Photographers, get in touch!', null],
    ['max', 'Marathon finish line in slow motion.', itemIds[12] ?? null],
    ['leo', 'Backstage is where the stories are.', itemIds[4] ?? null],
    ['zoe', 'Thank you to all 4,000 runners and every volunteer.', null],
    ['ana', 'Lightning talks are the best talks.', itemIds[16] ?? null],
    ['ben', 'Looking for a second shooter for December events.', null],
    ['ivy', 'Portrait booth at the marathon finish was a hit.', itemIds[9] ?? null],
  ];
  await db
    .insertInto('posts')
    .values(
      posts.map(([author, text, item], i) => ({
        author_id: id(author),
        text,
        content_item_id: item,
        created_at: at(3 + i * 7),
      })),
    )
    .execute();

  for (const owner of ['mia', 'max', 'leo', 'ben']) {
    const owner_id = id(owner);
    await db
      .insertInto('media_packages')
      .values([
        {
          owner_id,
          name: 'Essentials',
          description: 'Two hours of coverage, edited photos in 3 days.',
          price_cents: 25000,
          photo_count: 50,
          video_minutes: 0,
          hours: 2,
        },
        {
          owner_id,
          name: 'Full evening',
          description: 'Five hours, photos and a highlight video.',
          price_cents: 60000,
          photo_count: 150,
          video_minutes: 3,
          hours: 5,
        },
        {
          owner_id,
          name: 'Premium',
          description: 'All day, two shooters, raw files included.',
          price_cents: 120000,
          photo_count: 400,
          video_minutes: 10,
          hours: 10,
        },
      ])
      .execute();
    await db
      .insertInto('discount_codes')
      .values([
        { owner_id, code: `${owner.toUpperCase()}10`, percent_off: 10, expires_at: at(-24 * 60), times_used: 3 },
        { owner_id, code: `${owner.toUpperCase()}WINTER25`, percent_off: 25, expires_at: at(-24 * 30), times_used: 0 },
      ])
      .execute();
  }

  // clara: more than ten notifications (most NEW) so paging and the '10+' badge show. Each says
  // what happened in words and links to the thing it names (an order, an event, a profile).
  const notifications: Omit<Insertable<Schema['notifications']>, 'id'>[] = CLARA_NOTIFICATIONS.map(
    ([content, link], i) => ({
      user_id: id('clara'),
      status: i < 12 ? 'NEW' : i === 12 ? 'UNREAD' : 'READ',
      content,
      link,
      timestamp: at(i * 2 + 1),
    }),
  );
  for (const [who, fresh, old] of OTHER_NOTIFICATIONS)
    notifications.push(
      { user_id: id(who), status: 'NEW', content: fresh[0], link: fresh[1], timestamp: at(5) },
      { user_id: id(who), status: 'READ', content: old[0], link: old[1], timestamp: at(50) },
    );
  await db.insertInto('notifications').values(notifications).execute();

  // clara: twelve conversations, so the message dropdown pages and shows '10+'.
  const messages: Omit<Insertable<Schema['chat_messages']>, 'id'>[] = [];
  const messageNotifications: Insertable<Schema['message_notifications']>[] = [];
  const senders = DEMO_USERS.map((u) => u.profileName).filter((p) => p !== 'clara');
  senders.forEach((sender, i) => {
    messages.push({
      from_id: id('clara'),
      to_id: id(sender),
      content: `Hi ${sender}, are you free for an event next month?`,
      timestamp: at(30 + i),
    });
    const reply = `Hello Clara! ${CHAT_REPLIES[i % CHAT_REPLIES.length]}`;
    messages.push({ from_id: id(sender), to_id: id('clara'), content: reply, timestamp: at(20 + i) });
    messageNotifications.push({
      user_id: id('clara'),
      from_id: id(sender),
      content: reply,
      status: i < 11 ? 'NEW' : 'READ',
      timestamp: at(20 + i),
    });
  });
  const marathon = 'Can you cover the marathon finish with me?';
  messages.push({ from_id: id('mia'), to_id: id('max'), content: marathon, timestamp: at(12) });
  messageNotifications.push({
    user_id: id('max'),
    from_id: id('mia'),
    content: marathon,
    status: 'NEW',
    timestamp: at(12),
  });
  // One at a time: message ids follow the order written, as the conversation shows them.
  for (const message of messages) await db.insertInto('chat_messages').values(message).execute();
  await db.insertInto('message_notifications').values(messageNotifications).execute();

  type NewOrder = Omit<Insertable<Schema['event_orders']>, 'id'>;
  const insertOrder = async (order: NewOrder) =>
    (await db.insertInto('event_orders').values(order).returning('id').executeTakeFirstOrThrow()).id;
  const orderRows = new Map<string, number>();
  for (const [i, [status, info, deleted, eventName]] of ORDERS.entries()) {
    const orderId = orderIdOf(i);
    const requirements = JSON.stringify({
      summary: `Coverage of "${eventName}" for about ${40 + i * 10} guests.`,
      items: [
        { label: 'Shot list', value: 'Speeches, group photo, candid moments' },
        { label: 'Dress code', value: 'Smart casual' },
        { label: 'Arrival', value: '30 minutes before start' },
      ],
    });
    const delivered = status === 'DELIVERED';
    // Orders being fulfilled or delivered are for events that already happened.
    const eventDate = status === 'PENDING_FULFILLMENTS' || delivered ? at(24 * (5 + i)) : at(-24 * (10 + i * 3));
    const rowId = await insertOrder({
      order_id: orderId,
      sharing_id: randomBytes(9).toString('base64url'),
      client_id: id('clara'),
      photographer_id: id('mia'),
      event_name: eventName,
      event_date: eventDate,
      location: 'Downtown Conference Centre',
      package_name: i % 2 ? 'Full evening' : 'Essentials',
      public_status: status,
      info_status: info,
      deleted: deleted ? 1 : 0,
      requirement_info: requirements,
      discount_code: i === 3 ? 'MIA10' : null,
      total_cents: 25000 + i * 5000,
      // Orders past the request carry the photographer's quote of their total.
      quote: QUOTED.includes(status)
        ? JSON.stringify({
            currency: 'USD',
            packagePriceCents: 25000 + i * 5000,
            discountCents: 0,
            extrasCents: 0,
            extrasNote: '',
            totalCents: 25000 + i * 5000,
            sentAt: at(24 * (19 - i)),
          } satisfies OrderQuote)
        : null,
      requirements_request:
        status === 'REQUIREMENTS_NEEDED' ? 'How many guests, and which speeches should be covered?' : null,
      requirements_answer: null,
      decline_reason: status === 'DECLINED' ? 'I am already booked on that date.' : null,
      paid_out_at: delivered ? at(24) : null,
      created_at: at(24 * (20 - i)),
    });
    orderRows.set(orderId, rowId);
  }
  await insertOrder({
    order_id: 'ord-2001',
    sharing_id: randomBytes(9).toString('base64url'),
    client_id: id('dave'),
    photographer_id: id('max'),
    event_name: 'Car show',
    event_date: at(-24 * 14),
    location: 'Expo Hall',
    package_name: 'Premium',
    public_status: 'ORDER_REQUEST',
    info_status: null,
    deleted: 0,
    requirement_info: JSON.stringify({ summary: 'Car show coverage.', items: [] }),
    discount_code: null,
    total_cents: 120000,
    paid_out_at: null,
    created_at: at(24 * 3),
  });

  const delivered = orderRows.get(DELIVERED_ORDER);
  if (delivered === undefined) throw new Error(`seed: no order ${DELIVERED_ORDER}`);
  const descriptions = { 1: 'Stage reference', 2: 'Venue floor plan' } as const;
  for (const { n, identifier, file } of media.uploads)
    await db
      .insertInto('order_targets')
      .values({
        identifier,
        order_id: delivered,
        uploader_id: id('clara'),
        file_name: `reference-${n}.png`,
        content_type: 'image/png',
        description: descriptions[n],
        upload_token: randomBytes(16).toString('hex'),
        file_path: file,
        size_bytes: 0,
        created_at: at(48),
        uploaded_at: at(48),
        state: 'ready',
      })
      .execute();
  for (const { n, identifier, file, processed } of media.deliverables)
    await db
      .insertInto('order_targets')
      .values({
        identifier,
        order_id: delivered,
        uploader_id: id('mia'),
        file_name: `awards-${n}.${processed ? 'png' : 'jpg'}`,
        content_type: processed ? 'image/png' : 'image/jpeg',
        description: n === 1 ? 'Best of the evening' : '',
        upload_token: randomBytes(16).toString('hex'),
        file_path: file,
        size_bytes: 0,
        created_at: at(30),
        uploaded_at: at(30),
        state: processed ? 'ready' : 'processing',
      })
      .execute();
}

/** A demo notification: what it says, and the page of the thing it names. */
type DemoNotification = readonly [content: string, link: string];
const orderPage = (orderId: string) => PAGES.eventOrder.href({ orderId });
const eventPage = (eventIdentifier: string) => PAGES.event.href({ eventIdentifier });
const creatorPage = (profileName: string) => PAGES.creator.href({ profileName });

/** Clara's, newest first: her orders with mia (see ORDERS), events and people she follows. */
const CLARA_NOTIFICATIONS: readonly DemoNotification[] = [
  ['Your order ord-1005 (Charity run) moved to Pending Fulfillments.', orderPage('ord-1005')],
  ['New photos were added to Summer Jazz Night.', eventPage('summer-jazz-night-2026')],
  ['Mia Lens sent you a quote for Team offsite.', orderPage('ord-1003')],
  ['Mia Lens needs more details about Product launch.', orderPage('ord-1002')],
  ['Your order ord-1006 (Annual awards) was delivered: your photos are ready.', orderPage('ord-1006')],
  ['Olga Events published a new event: Winter Gala.', eventPage('winter-gala-2026')],
  ['Mia Lens declined Garden wedding: she is already booked on that date.', orderPage('ord-1007')],
  ['Mia Lens shared new photos on her page.', creatorPage('mia')],
  ['Mia Lens approved Summer party. Pay to secure the date.', orderPage('ord-1004')],
  ['Photos from City Marathon are up.', eventPage('city-marathon-2026')],
  ['You cancelled Spring fair; Mia Lens has been told.', orderPage('ord-1009')],
  ['Mia Lens received your order for Company kick-off.', orderPage('ord-1001')],
  ['Leo Frames shared backstage photos from Summer Jazz Night.', creatorPage('leo')],
  ['Welcome to EventMedia! Add a bio so photographers know who you are.', PAGES.profile.href()],
];

/** One NEW and one READ for a few other accounts. */
const OTHER_NOTIFICATIONS: readonly (readonly [profileName: string, fresh: DemoNotification, old: DemoNotification])[] =
  [
    [
      'mia',
      ['Clara Client placed an order for Company kick-off.', orderPage('ord-1001')],
      ['Your photo Encore is live on Summer Jazz Night.', eventPage('summer-jazz-night-2026')],
    ],
    [
      'max',
      ['Dave Wheels asked you to cover Car show.', orderPage('ord-2001')],
      ['Tech Meetup November is published.', eventPage('tech-meetup-november')],
    ],
    [
      'olga',
      ['Mia Lens shared photos from Summer Jazz Night.', eventPage('summer-jazz-night-2026')],
      ['Winter Gala is published.', eventPage('winter-gala-2026')],
    ],
    [
      'dave',
      ['Max Multi received your order for Car show.', orderPage('ord-2001')],
      ['Your profile was viewed 12 times this week.', PAGES.profile.href()],
    ],
  ];

const CHAT_REPLIES = [
  'Yes, send me the details.',
  'I am booked that weekend, sorry.',
  'Let me check my calendar.',
  'Sounds great!',
  'What time does it start?',
  'Can we talk tomorrow?',
];
