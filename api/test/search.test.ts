import { describe, expect, it } from 'vitest';
import type { SearchResult } from '@marketplace/shared/contract';
import { gradientPng } from '../src/db/png.js';
import { present, until, useTestApi } from './harness.js';

const t = useTestApi();

const search = async (query: string): Promise<SearchResult[]> => {
  const reply = await t().client().call('search', { query });
  expect(reply.status, reply.body.error).toBe(200);
  return reply.body.searchResults;
};
const hit = async (query: string, urlLink: string) =>
  present(
    (await search(query)).find((r) => r.urlLink === urlLink),
    `a result linking ${urlLink}`,
  );
/** A files-host URL fetched from the test server (the files origin is the API's own in tests). */
const status = async (url: string) => (await fetch(url.replace(t().config.filesOrigin, t().url))).status;
const eventCover = async (eventIdentifier: string) =>
  (await t().client().call('getEvent', { eventIdentifier })).body.event.coverUrl;

describe("search results' pictures", () => {
  it('shows an event found by search with the cover its page shows, at a URL that answers 200', async () => {
    const result = await hit('jazz', '/event/summer-jazz-night-2026');
    const cover = present(result.iconUrl, 'the cover');
    expect(cover).toBe(await eventCover('summer-jazz-night-2026'));
    expect(await status(cover)).toBe(200);
  });

  it('shows an event whose cover the media pipeline made with that cover, at a URL that answers 200', async () => {
    const olga = await t().as('olga');
    const created = await olga.call('createEvent', {
      name: 'Lantern Parade',
      startsAt: '2027-05-01T18:30:00.000Z',
      location: 'Old Town',
      description: 'Paper lanterns.',
    });
    expect(created.status, created.body.error).toBe(200);
    const { eventIdentifier } = created.body.event;
    const upload = await olga.call('uploadEventCover', { eventIdentifier, contentType: 'image/png' });
    expect(upload.status, upload.body.error).toBe(200);
    const put = await t()
      .client()
      .fetch(upload.body.uploadUrl.replace(t().config.filesOrigin, t().url), {
        method: 'PUT',
        body: new Blob([new Uint8Array(gradientPng(320, 160, 11))]),
        headers: { 'content-type': 'image/png' },
      });
    expect(put.status, put.body.error).toBe(200);
    await until(
      async () =>
        (await olga.call('getMyEvents')).body.events.find(
          (e) => e.eventIdentifier === eventIdentifier && !e.coverProcessing,
        ),
      'the cover made of the upload',
      20_000,
    );
    expect((await olga.call('setEventPublished', { eventIdentifier, published: true })).status).toBe(200);

    const result = await hit('lantern', `/event/${eventIdentifier}`);
    const cover = present(result.iconUrl, 'the cover made of the upload');
    expect(cover).toMatch(/\/media\/media\/cover\//);
    expect(cover).toBe(await eventCover(eventIdentifier));
    expect(await status(cover)).toBe(200);
  });

  it('shows an event whose cover still waits for the media pipeline without a picture, never by its unserved source', async () => {
    await t()
      .rows`update events set cover_path = ${'sources/events/winter-gala-2026/cover.jpg'}, cover_media = ${null} where identifier = ${'winter-gala-2026'}`;
    const result = await hit('gala', '/event/winter-gala-2026');
    expect(result.iconUrl).toBeNull();
    expect(await eventCover('winter-gala-2026')).toBeNull();
  });

  it("finds photos by name, linked to the viewer of their event's gallery, with a thumbnail that answers 200", async () => {
    const result = await hit('stage lights', '/event/summer-jazz-night-2026?photo=ci-photo-001');
    expect(result.name).toBe('Stage lights');
    const thumbnail = present(result.iconUrl, 'the thumbnail');
    expect(thumbnail).toMatch(/photo-001-thumb\.png$/);
    expect(await status(thumbnail)).toBe(200);
  });
});
