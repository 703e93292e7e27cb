import { describe, expect, it } from 'vitest';
import { present, useTestApi } from './harness.js';

const t = useTestApi();

describe('events', () => {
  it('lists events newest first with paging', async () => {
    const res = await t().client().call('getEvents', { pageNo: 0, limit: 3 });
    expect(res.status).toBe(200);
    expect(res.body.events).toHaveLength(3);
    expect(res.body.more).toBe(true);
    expect(res.body.events[0]).toMatchObject({
      eventIdentifier: 'winter-gala-2026',
      organizerProfileName: 'olga',
      itemCount: 0,
    });
    const rest = await t().client().call('getEvents', { pageNo: 1, limit: 3 });
    expect(rest.body).toMatchObject({ more: false });
    expect(rest.body.events).toHaveLength(1);
  });

  it("returns one event with its photos and videos in the spec's content-item shape", async () => {
    const res = await t().client().call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' });
    expect(res.status).toBe(200);
    expect(res.body.event.name).toBe('Summer Jazz Night');
    const items = res.body.contentItems;
    expect(items).toHaveLength(7);
    const photo = items[0];
    expect(photo).toEqual({
      name: 'Stage lights',
      contentIdentifier: 'ci-photo-001',
      contentUrl: `${t().config.filesOrigin}/media/events/summer-jazz-night-2026/photo-001.png`,
      contentType: 'image/png',
      metadata: { 'Content-Type': 'image/png' },
      width: 1200,
      height: 800,
      thumbnailUrl: `${t().config.filesOrigin}/media/events/summer-jazz-night-2026/photo-001-thumb.png`,
      filePath: 'events/summer-jazz-night-2026/photo-001.png',
      filename: 'photo-001.png',
      eventName: 'Summer Jazz Night',
      eventIdentifier: 'summer-jazz-night-2026',
      photographer: 'Mia Lens',
      profileName: 'mia',
      iconUrl: `${t().config.filesOrigin}/media/avatars/mia.png`,
      canAddToCart: true,
      priceCents: 1500,
      currency: 'USD',
      // The API's tests seed small pictures served as they are (SEED_DEMO_MEDIA=0): no pipeline.
      image: null,
      processing: false,
      locked: false,
      // A visitor: neither its owner nor a buyer.
      originalUrl: null,
    });
    const video = present(
      items.find((i) => i.contentType === 'video/mp4'),
      'a video item',
    );
    expect(video.contentUrl).toMatch(/\/playlist\.m3u8$/);
    expect(video.filePath).toMatch(/\.mp4$/);
    const sizes = new Set(items.map((i: { width: number; height: number }) => `${i.width}x${i.height}`));
    expect(sizes.size).toBeGreaterThanOrEqual(4);
  });

  it("marks the viewer's own items as not addable to the cart", async () => {
    const mia = await t().as('mia');
    const items = (await mia.call('getEvent', { eventIdentifier: 'summer-jazz-night-2026' })).body.contentItems;
    expect(items.filter((i) => i.profileName === 'mia').every((i) => !i.canAddToCart)).toBe(true);
  });

  it('answers an unknown event with 404 and its reason', async () => {
    const res = await t().client().call('getEvent', { eventIdentifier: 'no-such-event' });
    expect([res.status, res.body]).toEqual([404, { error: 'Event not found' }]);
  });

  it('serves every image and the HLS stream the event refers to', async () => {
    const items = (await t().client().call('getEvent', { eventIdentifier: 'city-marathon-2026' })).body.contentItems;
    for (const item of items) {
      const res = await fetch(item.contentUrl.replace(t().config.filesOrigin, t().url));
      expect(res.status, item.contentUrl).toBe(200);
    }
    const video = present(
      items.find((i) => i.contentType.startsWith('video/')),
      'a video item',
    );
    const playlist = await (await fetch(video.contentUrl.replace(t().config.filesOrigin, t().url))).text();
    const segments = playlist.split('\n').filter((line) => line.endsWith('.ts'));
    expect(segments.length).toBeGreaterThanOrEqual(2);
    const segment = await fetch(
      video.contentUrl.replace(t().config.filesOrigin, t().url).replace('playlist.m3u8', segments[0] as string),
    );
    expect(segment.headers.get('content-type')).toBe('video/mp2t');
    expect((await segment.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });
});

describe('posts and profiles', () => {
  it('lists community posts with their author and optional content item', async () => {
    const res = await t().client().call('getPosts');
    expect(res.body.posts).toHaveLength(8);
    expect(res.body.more).toBe(false);
    expect(res.body.posts[0]).toMatchObject({
      author: { profileName: 'mia', username: 'Mia Lens' },
      contentItem: { name: 'Encore' },
    });
    expect(res.body.posts.some((p: { contentItem: unknown }) => p.contentItem === null)).toBe(true);
  });

  it("returns a creator's public profile and content by profileName", async () => {
    const res = await t().client().call('getProfile', { profileName: 'leo' });
    expect(res.body.profile).toMatchObject({ profileName: 'leo', username: 'Leo Frames', roles: ['MEDIA'] });
    expect(res.body.profile).not.toHaveProperty('email');
    expect(res.body.contentItems.map((i: { name: string }) => i.name)).toEqual(['Backstage', 'Q&A']);
    expect((await t().client().call('getProfile', { profileName: 'ghost' })).status).toBe(404);
  });
});

describe('search', () => {
  it('finds people and events with a name, icon and link', async () => {
    const res = await t().client().call('search', { query: 'ma' });
    const links = res.body.searchResults.map((r: { urlLink: string }) => r.urlLink);
    expect(links).toContain('/user/max');
    expect(links).toContain('/event/city-marathon-2026');
    expect(res.body.searchResults[0]).toEqual({
      name: expect.any(String),
      iconUrl: expect.any(String),
      urlLink: expect.any(String),
    });
  });

  it('answers nothing for an empty query and matches wildcards literally', async () => {
    expect((await t().client().call('search', { query: '  ' })).body.searchResults).toEqual([]);
    expect((await t().client().call('search', { query: '%' })).body.searchResults).toEqual([]);
    expect((await t().client().call('search', {})).body.field).toBe('query');
  });
});
