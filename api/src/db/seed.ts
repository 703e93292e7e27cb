import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { EventOrderStatus, OrderInfoStatus, Role } from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import { hashPassword } from '../auth/passwords.js';
import type { Db } from './database.js';
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

const fixtures = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

/** True when the database has never been seeded. */
export function needsSeed(db: Db): boolean {
  const row = db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number };
  return row.n === 0;
}

/**
 * Fills an empty database with demo data that exercises every screen, and writes the media
 * files it refers to (generated images, the HLS fixture). Runs in one transaction.
 */
export async function seed(db: Db, mediaDir: string, now = new Date()): Promise<void> {
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3_600_000).toISOString();
  const write = (relative: string, data: Buffer | (() => Buffer)) => {
    const full = join(mediaDir, relative);
    mkdirSync(dirname(full), { recursive: true });
    if (!existsSync(full)) writeFileSync(full, typeof data === 'function' ? data() : data);
    return relative;
  };
  const copy = (fixture: string, relative: string) => {
    const full = join(mediaDir, relative);
    mkdirSync(dirname(full), { recursive: true });
    copyFileSync(join(fixtures, fixture), full);
    return relative;
  };
  let imageSeed = 1;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  db.transaction(() => {
    const ids = new Map<string, number>();
    const insertUser = db.prepare(
      'INSERT INTO users (profile_name, username, email, password_hash, profile_picture, bio, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertRole = db.prepare('INSERT INTO user_roles (user_id, role) VALUES (?, ?)');
    DEMO_USERS.forEach((u, i) => {
      // nora has no picture so the generic fallback shows.
      const picture =
        u.profileName === 'nora' ? null : write(`avatars/${u.profileName}.png`, () => gradientPng(128, 128, 100 + i));
      const id = Number(
        insertUser.run(
          u.profileName,
          u.username,
          `${u.profileName}@example.com`,
          passwordHash,
          picture,
          u.bio,
          at(24 * 400 - i),
        ).lastInsertRowid,
      );
      ids.set(u.profileName, id);
      for (const role of u.roles) insertRole.run(id, role);
    });
    const id = (profileName: string) => {
      const v = ids.get(profileName);
      if (v === undefined) throw new Error(`seed: unknown user ${profileName}`);
      return v;
    };

    const insertEvent = db.prepare(
      'INSERT INTO events (identifier, name, description, location, starts_at, cover_path, organizer_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertItem = db.prepare(
      `INSERT INTO content_items (identifier, event_id, owner_id, name, content_type, width, height, file_path, filename,
         stream_path, thumbnail_path, for_sale, price_cents, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const itemIds: number[] = [];
    let itemNo = 0;
    for (const e of EVENTS) {
      const cover = write(`events/${e.identifier}/cover.png`, () => gradientPng(800, 400, imageSeed++));
      const eventId = Number(
        insertEvent.run(
          e.identifier,
          e.name,
          e.description,
          e.location,
          at(-24 * e.daysFromNow),
          cover,
          id(e.organizer),
        ).lastInsertRowid,
      );
      for (const [owner, name, width, height] of e.photos) {
        itemNo++;
        const slug = `photo-${String(itemNo).padStart(3, '0')}`;
        const s = imageSeed++;
        const file = write(`events/${e.identifier}/${slug}.png`, () => gradientPng(width, height, s));
        const thumb = write(`events/${e.identifier}/${slug}-thumb.png`, () =>
          gradientPng(320, Math.round((320 * height) / width), s),
        );
        // Every fifth photo is not for sale, so the viewer's "no Add to cart" case has data.
        const forSale = itemNo % 5 === 0 ? 0 : 1;
        itemIds.push(
          Number(
            insertItem.run(
              `ci-${slug}`,
              eventId,
              id(owner),
              name,
              'image/png',
              width,
              height,
              file,
              `${slug}.png`,
              null,
              thumb,
              forSale,
              1500,
              at(200 - itemNo),
            ).lastInsertRowid,
          ),
        );
      }
      for (const [owner, name] of e.videos) {
        itemNo++;
        const slug = `video-${String(itemNo).padStart(3, '0')}`;
        const dir = `videos/${slug}`;
        copy('hls/playlist.m3u8', `${dir}/playlist.m3u8`);
        copy('hls/segment0.ts', `${dir}/segment0.ts`);
        copy('hls/segment1.ts', `${dir}/segment1.ts`);
        const file = copy('video.mp4', `${dir}/${slug}.mp4`);
        const thumb = write(`${dir}/thumb.png`, () => gradientPng(320, 180, imageSeed++));
        itemIds.push(
          Number(
            insertItem.run(
              `ci-${slug}`,
              eventId,
              id(owner),
              name,
              'video/mp4',
              320,
              180,
              file,
              `${slug}.mp4`,
              `${dir}/playlist.m3u8`,
              thumb,
              1,
              4500,
              at(200 - itemNo),
            ).lastInsertRowid,
          ),
        );
      }
    }

    const insertPost = db.prepare(
      'INSERT INTO posts (author_id, text, content_item_id, created_at) VALUES (?, ?, ?, ?)',
    );
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
    posts.forEach(([author, text, item], i) => insertPost.run(id(author), text, item, at(3 + i * 7)));

    const insertPackage = db.prepare(
      'INSERT INTO media_packages (owner_id, name, description, price_cents, photo_count, video_minutes) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertCode = db.prepare(
      'INSERT INTO discount_codes (owner_id, code, percent_off, expires_at, times_used) VALUES (?, ?, ?, ?, ?)',
    );
    for (const owner of ['mia', 'max', 'leo', 'ben']) {
      insertPackage.run(id(owner), 'Essentials', 'Two hours of coverage, edited photos in 3 days.', 25000, 50, 0);
      insertPackage.run(id(owner), 'Full evening', 'Five hours, photos and a highlight video.', 60000, 150, 3);
      insertPackage.run(id(owner), 'Premium', 'All day, two shooters, raw files included.', 120000, 400, 10);
      insertCode.run(id(owner), `${owner.toUpperCase()}10`, 10, at(-24 * 60), 3);
      insertCode.run(id(owner), `${owner.toUpperCase()}WINTER25`, 25, at(-24 * 30), 0);
    }

    // clara: more than ten notifications (most NEW) so paging and the '10+' badge show.
    const insertNotification = db.prepare(
      'INSERT INTO notifications (user_id, status, content, link, timestamp) VALUES (?, ?, ?, ?, ?)',
    );
    for (let i = 0; i < 14; i++) {
      const status = i < 12 ? 'NEW' : i === 12 ? 'UNREAD' : 'READ';
      const link =
        i % 3 === 0
          ? PAGES.orders.href()
          : i % 3 === 1
            ? PAGES.event.href({ eventIdentifier: 'summer-jazz-night-2026' })
            : null;
      insertNotification.run(
        id('clara'),
        status,
        `Update ${14 - i}: ${NOTIFICATION_TEXTS[i % NOTIFICATION_TEXTS.length]}`,
        link,
        at(i * 2 + 1),
      );
    }
    for (const who of ['mia', 'max', 'olga', 'dave']) {
      insertNotification.run(
        id(who),
        'NEW',
        'Welcome back! Your dashboard has new activity.',
        PAGES.profile.href(),
        at(5),
      );
      insertNotification.run(id(who), 'READ', 'Your profile was viewed 12 times this week.', null, at(50));
    }

    // clara: twelve conversations, so the message dropdown pages and shows '10+'.
    const insertMessage = db.prepare(
      'INSERT INTO chat_messages (from_id, to_id, content, timestamp) VALUES (?, ?, ?, ?)',
    );
    const insertMessageNotification = db.prepare(
      'INSERT INTO message_notifications (user_id, from_id, content, status, timestamp) VALUES (?, ?, ?, ?, ?)',
    );
    const senders = DEMO_USERS.map((u) => u.profileName).filter((p) => p !== 'clara');
    senders.forEach((sender, i) => {
      insertMessage.run(id('clara'), id(sender), `Hi ${sender}, are you free for an event next month?`, at(30 + i));
      const reply = `Hello Clara! ${CHAT_REPLIES[i % CHAT_REPLIES.length]}`;
      insertMessage.run(id(sender), id('clara'), reply, at(20 + i));
      insertMessageNotification.run(id('clara'), id(sender), reply, i < 11 ? 'NEW' : 'READ', at(20 + i));
    });
    insertMessage.run(id('mia'), id('max'), 'Can you cover the marathon finish with me?', at(12));
    insertMessageNotification.run(id('max'), id('mia'), 'Can you cover the marathon finish with me?', 'NEW', at(12));

    // Orders between clara (client) and mia (photographer): one per status, plus declined, deleted, cancelled.
    const insertOrder = db.prepare(
      `INSERT INTO event_orders (order_id, sharing_id, client_id, photographer_id, event_name, event_date, location, package_name,
         public_status, info_status, deleted, requirement_info, discount_code, total_cents, paid_out_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const orders: [EventOrderStatus, OrderInfoStatus | null, boolean, string][] = [
      ['ORDER_REQUEST', null, false, 'Company kick-off'],
      ['REQUIREMENTS_NEEDED', 'AWAITING_APPROVAL', false, 'Product launch'],
      ['AWAITING_APPROVAL', 'AWAITING_APPROVAL', false, 'Team offsite'],
      ['APPROVED', 'SECURED', false, 'Summer party'],
      ['PENDING_FULFILLMENTS', 'SECURED', false, 'Charity run'],
      ['DELIVERED', 'PUBLISHED', false, 'Annual awards'],
      ['DECLINED', null, false, 'Garden wedding'],
      ['PENDING_FULFILLMENTS', 'SECURED', true, 'Board dinner'],
      ['AWAITING_APPROVAL', 'CANCELLED', false, 'Spring fair'],
    ];
    const orderRows = orders.map(([status, info, deleted, eventName], i) => {
      const orderId = `ord-${1001 + i}`;
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
      const rowId = Number(
        insertOrder.run(
          orderId,
          randomBytes(9).toString('base64url'),
          id('clara'),
          id('mia'),
          eventName,
          eventDate,
          'Downtown Conference Centre',
          i % 2 ? 'Full evening' : 'Essentials',
          status,
          info,
          deleted ? 1 : 0,
          requirements,
          i === 3 ? 'MIA10' : null,
          25000 + i * 5000,
          delivered ? at(24) : null,
          at(24 * (20 - i)),
        ).lastInsertRowid,
      );
      return { rowId, orderId, delivered };
    });
    insertOrder.run(
      'ord-2001',
      randomBytes(9).toString('base64url'),
      id('dave'),
      id('max'),
      'Car show',
      at(-24 * 14),
      'Expo Hall',
      'Premium',
      'PENDING_FULFILLMENTS',
      'SECURED',
      0,
      JSON.stringify({ summary: 'Car show coverage.', items: [] }),
      null,
      120000,
      null,
      at(24 * 3),
    );

    // The delivered order has two uploads already.
    const insertTarget = db.prepare(
      `INSERT INTO order_targets (identifier, order_id, uploader_id, file_name, content_type, description, upload_token, file_path,
         size_bytes, created_at, uploaded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const delivered = orderRows.find((o) => o.delivered);
    if (delivered) {
      for (const [n, description] of [
        [1, 'Stage reference'],
        [2, 'Venue floor plan'],
      ] as const) {
        const identifier = `tgt-seed-${n}`;
        const file = write(`uploads/${delivered.orderId}/${identifier}-reference-${n}.png`, () =>
          gradientPng(640, 480, 300 + n),
        );
        insertTarget.run(
          identifier,
          delivered.rowId,
          id('clara'),
          `reference-${n}.png`,
          'image/png',
          description,
          randomBytes(16).toString('hex'),
          file,
          0,
          at(48),
          at(48),
        );
      }
    }
  })();
}

const NOTIFICATION_TEXTS = [
  'Your order ord-1005 moved to Pending Fulfillments.',
  'New photos were added to Summer Jazz Night.',
  'Mia Lens sent you a quote.',
  'An item in your cart is now 10% off.',
  'Your order ord-1006 was delivered.',
  'Olga Events published a new event.',
];

const CHAT_REPLIES = [
  'Yes, send me the details.',
  'I am booked that weekend, sorry.',
  'Let me check my calendar.',
  'Sounds great!',
  'What time does it start?',
  'Can we talk tomorrow?',
];
