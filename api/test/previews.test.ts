import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CartItem, ContentItem } from '@marketplace/shared/contract';
import { gradientPng } from '../src/db/png.js';
import { contentFileLinks } from '../src/files/contentFileLinks.js';
import type { TargetMedia } from '../src/media/derivatives.js';
import { syntheticClip } from '../src/media/clips.js';
import { mediaJobs } from '../src/media/jobs.js';
import { present, type TestClient, useTestApi } from './harness.js';

// Photos for sale through the media pipeline, as pages read them: everyone is shown a
// watermarked preview at public URLs; the owner and the buyers the unmarked pictures, by signed
// links. The API's tests seed items served as they are (SEED_DEMO_MEDIA=0): here three of the
// seed's photos get a source waiting under `sources/`, as the demo's do, and their media job runs.

const t = useTestApi();

const EVENT = 'summer-jazz-night-2026';
/** mia's "Encore", for sale, shown in a post of hers too. */
const LANDSCAPE = 'ci-photo-006';
/** mia's "Saxophone solo", for sale. */
const PORTRAIT = 'ci-photo-002';
/** leo's "Backstage": every fifth seeded photo is not for sale. */
const NOT_FOR_SALE = 'ci-photo-005';
/** mia's "Stage lights", for sale, made as before previews were (the last test). */
const MADE_BEFORE = 'ci-photo-001';

/** Gives a seeded item a source waiting for the pipeline (a smooth PNG: what differs between two pictures of it is the mark). */
async function sourceFor(identifier: string, width: number, height: number, seed: number) {
  const key = `sources/test/${identifier}.png`;
  await t().api.services.files.put(key, gradientPng(width, height, seed), 'image/png');
  await t()
    .rows`UPDATE content_items SET file_path = ${key}, content_type = 'image/png', width = ${width}, height = ${height}, media = NULL WHERE identifier = ${identifier}`;
}

/** The item's media as stored. */
const storedMedia = async (identifier: string): Promise<TargetMedia> => {
  const [row] = await t().rows<{
    media: string | null;
  }>`SELECT media FROM content_items WHERE identifier = ${identifier}`;
  return JSON.parse(present(row?.media, `the media of ${identifier}`)) as TargetMedia;
};

beforeAll(async () => {
  await sourceFor(LANDSCAPE, 2000, 1125, 11);
  await sourceFor(PORTRAIT, 1125, 2000, 12);
  await sourceFor(NOT_FOR_SALE, 800, 600, 13);
  // The job the API runs at start for the demo's photos (media/jobs.ts queuePublicMedia), run here to its end.
  const jobs = mediaJobs(t().api.services);
  for (const contentIdentifier of [LANDSCAPE, PORTRAIT, NOT_FOR_SALE])
    await jobs.handle({ kind: 'content', id: contentIdentifier });
}, 120_000);

/** Every URL of a picture an item or cart line carries: its file, its thumbnail, each source of its `<picture>`. */
function urlsOf(item: Pick<ContentItem, 'thumbnailUrl' | 'image'> & { contentUrl?: string }): string[] {
  const image = present(item.image, 'a picture');
  const listed = [item.contentUrl, item.thumbnailUrl, image.src, ...image.sources.flatMap((s) => s.srcset.split(', '))];
  return listed.filter((entry): entry is string => !!entry).map((entry) => entry.split(' ')[0] ?? '');
}

/** The widths a picture's JPEG srcset lists. */
const jpegWidths = (item: ContentItem) =>
  present(item.image, 'a picture')
    .sources.find((s) => s.type === 'image/jpeg')
    ?.srcset.split(', ')
    .map((entry) => Number.parseInt(entry.split(' ')[1] ?? '', 10));

/** The item as `client` finds it on every page that shows it: the event, the creator's page, the posts. */
async function everyView(client: TestClient, identifier: string, owner: string): Promise<ContentItem[]> {
  const pick = (items: (ContentItem | null)[], where: string) =>
    present(
      items.find((item) => item?.contentIdentifier === identifier),
      `${identifier} on ${where}`,
    );
  const event = (await client.call('getEvent', { eventIdentifier: EVENT })).body.contentItems;
  const creator = (await client.call('getProfile', { profileName: owner })).body.contentItems;
  const views = [pick(event, 'the event'), pick(creator, "the creator's page")];
  const posts = (await client.call('getPosts', { limit: 50 })).body.posts.map((post) => post.contentItem);
  if (posts.some((item) => item?.contentIdentifier === identifier)) views.push(pick(posts, 'the posts'));
  return views;
}

/** Fetches each URL once: every one must answer with a picture. */
async function fetchAll(urls: string[]): Promise<Map<string, Buffer>> {
  const fetched = new Map<string, Buffer>();
  for (const url of new Set(urls)) {
    const answer = await fetch(url);
    expect([answer.status, answer.headers.get('content-type')?.startsWith('image/')], url).toEqual([200, true]);
    fetched.set(url, Buffer.from(await answer.arrayBuffer()));
  }
  return fetched;
}

const publicPicture = (identifier: string) =>
  new RegExp(`^${t().url}/media/media/content/${identifier}/[\\w-]+/\\d+\\.(avif|webp|jpg)$`);
const signedPicture = (identifier: string) =>
  new RegExp(`^${t().url}/files/content/${identifier}\\?f=\\d+\\.(avif|webp|jpg)&exp=\\d+&sig=[\\w-]+$`);

/** The largest JPEG a picture lists, decoded to its pixels. */
async function largestJpeg(item: ContentItem) {
  const answer = await fetch(present(item.image, 'a picture').src);
  expect(answer.status).toBe(200);
  return sharp(Buffer.from(await answer.arrayBuffer()))
    .raw()
    .toBuffer({ resolveWithObject: true });
}

const TYPES: Record<string, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' };

const asClaraBuyer = async (identifier: string) => {
  const [clara] = await t().rows<{ id: number }>`SELECT id FROM users WHERE profile_name = 'clara'`;
  // What a paid purchase grants (repositories/purchases/entitlements.ts); the purchase itself does not matter here.
  await t()
    .rows`INSERT INTO entitlements (user_id, content_identifier, purchase_id, granted_at) VALUES (${present(clara, 'clara').id}, ${identifier}, 0, ${new Date().toISOString()})`;
};

describe('a photo for sale', () => {
  it('shows a visitor and any other member only its watermarked preview on every page and in the cart, at public URLs that all answer', async () => {
    const nora = await t().as('nora');
    for (const [who, client] of [
      ['a visitor', t().client()],
      ['nora', nora],
    ] as const) {
      for (const [identifier, widths] of [
        [LANDSCAPE, [320, 640, 1280]],
        [PORTRAIT, [320, 640, 720]],
      ] as const) {
        const views = await everyView(client, identifier, 'mia');
        for (const item of views) {
          const urls = urlsOf(item);
          expect(urls.length, `${who}: ${identifier}`).toBeGreaterThan(9);
          for (const url of urls) expect(url, `${who}: ${identifier}`).toMatch(publicPicture(identifier));
          expect(jpegWidths(item), `${who}: ${identifier}`).toEqual(widths);
          expect(item.filePath).toMatch(/^media\/content\/.+\/\d+\.jpg$/);
          await fetchAll(urls);
        }
      }
    }
    // The landscape photo is in a post of mia's: a view the test must have walked.
    expect(await everyView(t().client(), LANDSCAPE, 'mia')).toHaveLength(3);

    const added = await nora.call('addCartItem', { identifier: LANDSCAPE, itemType: 'CONTENT' });
    expect(added.status).toBe(200);
    const line: CartItem = present(
      added.body.cart.find((item) => item.identifier === LANDSCAPE),
      'the cart line',
    );
    for (const url of urlsOf(line)) expect(url).toMatch(publicPicture(LANDSCAPE));
    await fetchAll(urlsOf(line));
  });

  it('shows its owner and a buyer the unmarked pictures, at every width, by signed links that answer', async () => {
    const mia = await t().as('mia');
    const clara = await t().as('clara');
    // Before buying, clara is shown the preview like anyone.
    for (const item of await everyView(clara, LANDSCAPE, 'mia'))
      for (const url of urlsOf(item)) expect(url).toMatch(publicPicture(LANDSCAPE));
    await asClaraBuyer(LANDSCAPE);

    for (const [who, client] of [
      ['mia, the owner', mia],
      ['clara, a buyer', clara],
    ] as const) {
      for (const item of await everyView(client, LANDSCAPE, 'mia')) {
        expect(jpegWidths(item), who).toEqual([320, 640, 1280, 1920]);
        const urls = urlsOf(item);
        for (const url of urls) expect(url, who).toMatch(signedPicture(LANDSCAPE));
        expect(item.contentUrl, who).toBe(item.image?.src);
        for (const url of new Set(urls)) {
          const answer = await fetch(url);
          expect([answer.status, answer.headers.get('cache-control')], url).toEqual([200, 'private, max-age=300']);
          expect(answer.headers.get('content-type'), url).toBe(TYPES[/f=\d+\.(\w+)/.exec(url)?.[1] ?? '']);
        }
      }
      // Bought (or owned) is per item: the portrait is still a preview to clara, and mia sees her own unmarked.
      const portrait = present((await everyView(client, PORTRAIT, 'mia'))[0], 'the portrait');
      expect(portrait.image?.src).toMatch(who.startsWith('mia') ? signedPicture(PORTRAIT) : publicPicture(PORTRAIT));
    }
  });

  it('refuses an unmarked picture by a link without its signature (403), altered (403), or past its time (410)', async () => {
    const mia = await t().as('mia');
    const [item] = await everyView(mia, LANDSCAPE, 'mia');
    const link = new URL(present(item?.image, 'the picture').src);
    expect((await fetch(link)).status).toBe(200);

    const unsigned = new URL(link);
    unsigned.searchParams.delete('sig');
    const otherFile = new URL(link);
    otherFile.searchParams.set('f', '1920.avif');
    const otherItem = new URL(link.href.replace(LANDSCAPE, PORTRAIT));
    const later = new URL(link);
    later.searchParams.set('exp', String(Number(link.searchParams.get('exp')) + 3600));
    for (const refused of [unsigned, otherFile, otherItem, later]) {
      const answer = await fetch(refused);
      expect([answer.status, ((await answer.json()) as { error?: string }).error], refused.href).toEqual([
        403,
        expect.stringMatching(/^This link is (incomplete|not valid)$/),
      ]);
    }
    // Signed as the API signs, but an hour ago: its time is past.
    const expired = contentFileLinks(t().config.fileLinkKey).path(LANDSCAPE, '1920.jpg', Date.now() - 3600_000);
    const gone = await fetch(`${t().url}${expired}`);
    expect([gone.status, ((await gone.json()) as { error?: string }).error]).toEqual([
      410,
      'This link has expired: open the page again',
    ]);
    // A well signed link to a file the item does not have.
    expect((await fetch(`${t().url}${contentFileLinks(t().config.fileLinkKey).path(LANDSCAPE, 'x.jpg')}`)).status).toBe(
      404,
    );
  });

  it('keeps its unmarked pictures where neither /media nor /download serves them, and its preview under media/', async () => {
    const media = await storedMedia(LANDSCAPE);
    const unmarked = present(media.unmarked, 'the unmarked pictures');
    expect(unmarked.map((d) => d.name)).toEqual(
      [320, 640, 1280, 1920].flatMap((w) => [`${w}.avif`, `${w}.webp`, `${w}.jpg`]),
    );
    for (const d of unmarked) {
      expect(d.key).toMatch(new RegExp(`^unmarked/content/${LANDSCAPE}/[\\w-]+/${d.name.replace('.', '\\.')}$`));
      expect(await t().api.services.files.size(d.key), d.key).toBeGreaterThan(0);
      for (const path of [
        `/media/${d.key}`,
        `/download?${new URLSearchParams({ filePath: d.key, fileName: 'x.jpg' }).toString()}`,
      ])
        expect((await fetch(`${t().url}${path}`)).status, path).toBe(404);
    }
    for (const d of media.derivatives) expect(d.key).toMatch(new RegExp(`^media/content/${LANDSCAPE}/`));
  });

  it('is previewed at most 1280 px on its long edge, landscape or portrait, in every format', async () => {
    for (const [identifier, largest] of [
      [LANDSCAPE, [1280, 720]],
      [PORTRAIT, [720, 1280]],
    ] as const) {
      const [item] = await everyView(t().client(), identifier, 'mia');
      const fetched = await fetchAll(urlsOf(present(item, identifier)));
      const sizes = await Promise.all(
        [...fetched.values()].map(async (bytes) => {
          const meta = await sharp(bytes).metadata();
          return [meta.width ?? 0, meta.height ?? 0] as const;
        }),
      );
      for (const [width, height] of sizes) expect(Math.max(width, height), identifier).toBeLessThanOrEqual(1280);
      // The largest is as large as a preview may be: 1280 on the long edge, the photo's shape kept.
      expect([...sizes].sort(([a], [b]) => b - a)[0], identifier).toEqual(largest);
    }
  });

  it("is marked: the preview's pixels differ from the unmarked picture's of the same size across the frame", async () => {
    const [visitorView] = await everyView(t().client(), LANDSCAPE, 'mia');
    const [ownerView] = await everyView(await t().as('mia'), LANDSCAPE, 'mia');
    // The preview's largest is 1280 wide; the unmarked one of that width is in the owner's srcset.
    const preview = await largestJpeg(present(visitorView, 'the visitor view'));
    const unmarkedUrl = present(ownerView?.image, 'the unmarked picture')
      .sources.find((s) => s.type === 'image/jpeg')
      ?.srcset.split(', ')
      .find((entry) => entry.endsWith(' 1280w'))
      ?.split(' ')[0];
    const unmarked = await sharp(
      Buffer.from(await (await fetch(present(unmarkedUrl, 'the 1280 px JPEG'))).arrayBuffer()),
    )
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([preview.info.width, preview.info.height]).toEqual([unmarked.info.width, unmarked.info.height]);
    const { width, height, channels } = unmarked.info;
    // Per quarter of the frame: the share of pixels further apart than JPEG's error makes them.
    const quarters = [0, 0, 0, 0];
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * channels;
        let delta = 0;
        for (let c = 0; c < 3; c++)
          delta = Math.max(delta, Math.abs((preview.data[at + c] ?? 0) - (unmarked.data[at + c] ?? 0)));
        const quarter = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1);
        if (delta > 40) quarters[quarter] = (quarters[quarter] ?? 0) + 1;
      }
    for (const count of quarters) expect(count / ((width * height) / 4)).toBeGreaterThan(0.03);
  });
});

describe('a photo not for sale', () => {
  it('is shown to everyone unmarked at public URLs, at the page widths', async () => {
    const media = await storedMedia(NOT_FOR_SALE);
    expect(media.unmarked).toBeUndefined();
    for (const client of [t().client(), await t().as('leo')]) {
      const [item] = await everyView(client, NOT_FOR_SALE, 'leo');
      const urls = urlsOf(present(item, NOT_FOR_SALE));
      for (const url of urls) expect(url).toMatch(publicPicture(NOT_FOR_SALE));
      expect(jpegWidths(present(item, NOT_FOR_SALE))).toEqual([320, 640, 800]);
      await fetchAll(urls);
    }
  });
});

describe('a photo for sale made before previews were', () => {
  it('is shown as it was made until its job runs again, then as its preview, its old public pictures gone', async () => {
    // Made as the pipeline made a photo before previews: one set of pictures, unmarked, under media/.
    await sourceFor(MADE_BEFORE, 1600, 900, 14);
    await t().rows`UPDATE content_items SET for_sale = 0 WHERE identifier = ${MADE_BEFORE}`;
    const jobs = mediaJobs(t().api.services);
    await jobs.handle({ kind: 'content', id: MADE_BEFORE });
    await t().rows`UPDATE content_items SET for_sale = 1 WHERE identifier = ${MADE_BEFORE}`;
    const old = await storedMedia(MADE_BEFORE);
    expect(old.unmarked).toBeUndefined();

    const [before] = await everyView(t().client(), MADE_BEFORE, 'mia');
    const oldUrls = urlsOf(present(before, 'the old row'));
    for (const url of oldUrls) expect(url).toMatch(publicPicture(MADE_BEFORE));
    expect(jpegWidths(present(before, 'the old row'))).toEqual([320, 640, 1280, 1600]);
    await fetchAll(oldUrls);

    // At the next start its job is queued again (queuePublicMedia asks for what waits).
    expect((await t().api.services.repos.content.unprocessed()).content).toContain(MADE_BEFORE);
    await jobs.handle({ kind: 'content', id: MADE_BEFORE });
    expect(present((await storedMedia(MADE_BEFORE)).unmarked, 'the new unmarked pictures')).toHaveLength(12);
    const [after] = await everyView(t().client(), MADE_BEFORE, 'mia');
    expect(jpegWidths(present(after, 'the new row'))).toEqual([320, 640, 1280]);
    await fetchAll(urlsOf(present(after, 'the new row')));
    for (const url of new Set(oldUrls)) expect((await fetch(url)).status, url).toBe(404);
    // Made once: it waits no more.
    expect((await t().api.services.repos.content.unprocessed()).content).not.toContain(MADE_BEFORE);
  });
});

describe('a video for sale', () => {
  /** mia's "Opening set clip" on the jazz night, for sale, made from a real clip here. */
  let video = '';
  /** The files of its ladder as stored (keys under the private prefix). */
  let ladder: string[] = [];

  beforeAll(async () => {
    const [row] = await t().rows<{
      identifier: string;
    }>`SELECT identifier FROM content_items WHERE name = 'Opening set clip'`;
    video = present(row, 'the seeded video').identifier;
    const key = `sources/test/${video}.mp4`;
    await t().api.services.files.put(key, syntheticClip({ width: 640, height: 360, seconds: 3 }), 'video/mp4');
    await t().rows`UPDATE content_items SET file_path = ${key}, media = NULL WHERE identifier = ${video}`;
    await mediaJobs(t().api.services).handle({ kind: 'content', id: video });
    ladder = present((await storedMedia(video)).video, 'the ladder').files.map((f) => f.key);
  }, 120_000);

  /** The lines of a playlist that name files: its URIs, and the init segment's. */
  const urisOf = (playlist: string) =>
    playlist
      .split('\n')
      .flatMap((line) => (line.startsWith('#EXT-X-MAP:') ? [/URI="([^"]+)"/.exec(line)?.[1] ?? ''] : [line]))
      .filter((line) => line && !line.startsWith('#'));

  it('shows a visitor and any other member its watermarked poster only: nothing to play, its ladder at no public URL', async () => {
    expect(ladder.length).toBeGreaterThan(4);
    for (const key of ladder) {
      expect(key).toMatch(new RegExp(`^unmarked/content/${video}/`));
      expect((await fetch(`${t().url}/media/${key}`)).status, key).toBe(404);
    }
    for (const client of [t().client(), await t().as('nora')]) {
      for (const item of await everyView(client, video, 'mia')) {
        expect([item.locked, item.contentUrl, item.canAddToCart]).toEqual([true, '', true]);
        for (const url of urlsOf(item)) expect(url).toMatch(publicPicture(video));
        await fetchAll(urlsOf(item));
      }
    }
  });

  it('plays for its owner and a buyer by signed links: every playlist, init segment and segment, none outliving the master', async () => {
    await asClaraBuyer(video);
    for (const who of ['mia', 'clara']) {
      const [item] = await everyView(await t().as(who), video, 'mia');
      expect(item?.locked, who).toBe(false);
      const master = new URL(present(item?.contentUrl, 'the master playlist'));
      expect(master.href).toMatch(new RegExp(`^${t().url}/files/content/${video}\\?f=master\\.m3u8&exp=\\d+&sig=`));
      const notAfter = Number(master.searchParams.get('exp'));
      const seen: string[] = [];
      const follow = async (url: string): Promise<void> => {
        const answer = await fetch(url);
        const type = answer.headers.get('content-type');
        expect([answer.status, answer.headers.get('cache-control')], url).toEqual([200, 'private, max-age=300']);
        seen.push(new URL(url).searchParams.get('f') ?? '');
        if (type !== 'application/vnd.apple.mpegurl') return expect(type, url).toBe('video/mp4');
        for (const uri of urisOf(await answer.text())) {
          const link = new URL(uri);
          expect(link.pathname, uri).toBe(`/files/content/${video}`);
          expect(Number(link.searchParams.get('exp')), uri).toBeLessThanOrEqual(notAfter);
          await follow(uri);
        }
      };
      await follow(master.href);
      // Everything the ladder holds is reached through the master playlist, and nothing else.
      expect(seen.sort(), who).toEqual(
        present((await storedMedia(video)).video, 'the ladder')
          .files.map((f) => f.name)
          .sort(),
      );
    }
  });

  it("makes no file a playlist names last longer than the playlist's link", async () => {
    // A link to the master given 25 minutes ago: what it names now is signed to end with it.
    const master = `${t().url}${contentFileLinks(t().config.fileLinkKey).path(video, 'master.m3u8', Date.now() - 25 * 60_000)}`;
    const notAfter = new URL(master).searchParams.get('exp');
    const answer = await fetch(master);
    expect(answer.status).toBe(200);
    const named = urisOf(await answer.text());
    expect(named.length).toBeGreaterThan(0);
    for (const uri of named) expect(new URL(uri).searchParams.get('exp'), uri).toBe(notAfter);
  });

  it('refuses a file of its ladder by a link signed for another file (403)', async () => {
    const [item] = await everyView(await t().as('mia'), video, 'mia');
    const link = new URL(present(item?.contentUrl, 'the master playlist'));
    link.searchParams.set('f', '360p/index.m3u8');
    expect((await fetch(link)).status).toBe(403);
  });

  it('made before previews were (its ladder public), is locked to visitors until its job runs again, then its public files are gone', async () => {
    const jobs = mediaJobs(t().api.services);
    await t().rows`UPDATE content_items SET for_sale = 0, media = NULL WHERE identifier = ${video}`;
    await jobs.handle({ kind: 'content', id: video });
    await t().rows`UPDATE content_items SET for_sale = 1 WHERE identifier = ${video}`;
    const old = present((await storedMedia(video)).video, 'the public ladder').files.map((f) => f.key);
    for (const key of old) expect(key).toMatch(/^media\//);

    const [visitors] = await everyView(t().client(), video, 'mia');
    expect([visitors?.locked, visitors?.contentUrl]).toEqual([true, '']);
    const [owners] = await everyView(await t().as('mia'), video, 'mia');
    expect(owners?.contentUrl).toMatch(new RegExp(`^${t().url}/media/media/content/${video}/`));

    expect((await t().api.services.repos.content.unprocessed()).content).toContain(video);
    await jobs.handle({ kind: 'content', id: video });
    for (const key of present((await storedMedia(video)).video, 'the new ladder').files.map((f) => f.key))
      expect(key).toMatch(new RegExp(`^unmarked/content/${video}/`));
    for (const key of old) expect((await fetch(`${t().url}/media/${key}`)).status, key).toBe(404);
    expect((await t().api.services.repos.content.unprocessed()).content).not.toContain(video);
  });
});
