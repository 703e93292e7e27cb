import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnEvent } from '@marketplace/shared/contract';
import { gradientPng } from '../src/db/png.js';
import { present, startTestApi, until, type TestApi, type TestClient } from './harness.js';

let t: TestApi;
let olga: TestClient;
let zoe: TestClient;
let clara: TestClient;
beforeAll(async () => {
  t = await startTestApi();
  olga = await t.as('olga');
  zoe = await t.as('zoe');
  clara = await t.as('clara');
});
afterAll(() => t.close());

const draft = {
  name: 'Harbour Lights Festival',
  startsAt: '2027-05-01T18:30:00.000Z',
  location: 'Harbour Front, Pier 3',
  description: 'Lanterns on the water.',
};

const created = async (client: TestClient, request: Record<string, unknown> = draft): Promise<OwnEvent> => {
  const reply = await client.call('createEvent', request);
  expect(reply.status, reply.body.error).toBe(200);
  return reply.body.event;
};
const publicList = async () =>
  (await t.client().call('getEvents', { limit: 50 })).body.events.map((e) => e.eventIdentifier);
const searched = async (query: string) =>
  (await t.client().call('search', { query })).body.searchResults.map((r) => r.urlLink);

describe("an organizer's events", () => {
  it('creates a draft under an identifier made from its name, shown to its organizer only until published', async () => {
    const event = await created(olga);
    expect(event).toMatchObject({
      eventIdentifier: 'harbour-lights-festival-2027',
      name: 'Harbour Lights Festival',
      startsAt: '2027-05-01T18:30:00.000Z',
      location: 'Harbour Front, Pier 3',
      description: 'Lanterns on the water.',
      published: false,
      coverProcessing: false,
      organizerProfileName: 'olga',
    });
    const eventIdentifier = event.eventIdentifier;
    // A second event of the same name gets the next free identifier.
    expect((await created(olga)).eventIdentifier).toBe('harbour-lights-festival-2027-2');

    const mine = (await olga.call('getMyEvents')).body.events;
    expect(mine.find((e) => e.eventIdentifier === eventIdentifier)).toMatchObject({ published: false });
    // Seeded events were published before drafts existed.
    expect(mine.find((e) => e.eventIdentifier === 'summer-jazz-night-2026')).toMatchObject({ published: true });

    expect(await publicList()).not.toContain(eventIdentifier);
    expect(await searched('Harbour Lights')).toEqual([]);
    for (const other of [t.client(), zoe]) {
      const page = await other.call('getEvent', { eventIdentifier });
      expect([page.status, page.body.error]).toEqual([404, 'Event not found']);
    }
    expect((await olga.call('getEvent', { eventIdentifier })).body.event).toMatchObject({ name: draft.name });

    const published = await olga.call('setEventPublished', { eventIdentifier, published: true });
    expect(published.body.event).toMatchObject({ eventIdentifier, published: true });
    expect(await publicList()).toContain(eventIdentifier);
    expect(await searched('Harbour Lights')).toContain(`/event/${eventIdentifier}`);
    expect((await t.client().call('getEvent', { eventIdentifier })).body.event).toMatchObject({
      startsAt: '2027-05-01T18:30:00.000Z',
      location: 'Harbour Front, Pier 3',
    });

    const withdrawn = await olga.call('setEventPublished', { eventIdentifier, published: false });
    expect(withdrawn.body.event.published).toBe(false);
    expect(await publicList()).not.toContain(eventIdentifier);
    expect((await t.client().call('getEvent', { eventIdentifier })).status).toBe(404);
  });

  it('edits an event, keeping its identifier so links to it keep working', async () => {
    const { eventIdentifier } = await created(olga, { ...draft, name: 'Spring Market' });
    const edited = await olga.call('updateEvent', {
      eventIdentifier,
      name: 'Spring Night Market',
      startsAt: '2027-04-10T20:00+02:00',
      location: 'Old Town Square',
      description: '',
    });
    expect(edited.status, edited.body.error).toBe(200);
    expect(edited.body.event).toMatchObject({
      eventIdentifier,
      name: 'Spring Night Market',
      startsAt: '2027-04-10T18:00:00.000Z',
      location: 'Old Town Square',
      description: '',
    });
  });

  it('refuses each field with its reason beside it', async () => {
    const refusal = async (change: Record<string, unknown>) => {
      const reply = await olga.call('createEvent', { ...draft, ...change });
      return [reply.status, reply.body.field, reply.body.error];
    };
    expect(await refusal({ name: '  ' })).toEqual([400, 'name', "Invalid field 'name': must not be empty"]);
    expect(await refusal({ name: 'x'.repeat(121) })).toEqual([
      400,
      'name',
      "Invalid field 'name': must be at most 120 characters",
    ]);
    expect(await refusal({ startsAt: 'next Friday' })).toEqual([
      400,
      'startsAt',
      "Invalid field 'startsAt': must be a date and time",
    ]);
    for (const startsAt of ['2027-02-30T10:00', '2027-05-01T25:00', '2027-05-01'])
      expect((await refusal({ startsAt })).slice(0, 2)).toEqual([400, 'startsAt']);
    expect(await refusal({ location: undefined })).toEqual([400, 'location', "Missing field 'location'"]);
    expect(await refusal({ location: '' })).toEqual([400, 'location', "Invalid field 'location': must not be empty"]);
    expect(await refusal({ description: 'x'.repeat(2001) })).toEqual([
      400,
      'description',
      "Invalid field 'description': must be at most 2000 characters",
    ]);
    const edit = await olga.call('updateEvent', { ...draft, eventIdentifier: 'winter-gala-2026', name: '' });
    expect([edit.status, edit.body.field]).toEqual([400, 'name']);
  });

  it("refuses another organizer's event, and anyone without the organizer role", async () => {
    const eventIdentifier = 'summer-jazz-night-2026';
    // Not found, as an event that does not exist: a draft's address is not confirmed to others.
    const notTheirs = [404, 'Event not found'];
    const edit = await zoe.call('updateEvent', { ...draft, eventIdentifier });
    expect([edit.status, edit.body.error]).toEqual(notTheirs);
    const withdraw = await zoe.call('setEventPublished', { eventIdentifier, published: false });
    expect([withdraw.status, withdraw.body.error]).toEqual(notTheirs);
    const cover = await zoe.call('uploadEventCover', { eventIdentifier, contentType: 'image/png' });
    expect([cover.status, cover.body.error]).toEqual(notTheirs);
    expect((await t.client().call('getEvent', { eventIdentifier })).body.event).toMatchObject({
      name: 'Summer Jazz Night',
    });

    const notOrganizer = [403, 'Events are for users with the EVENT_ORGANIZER role'];
    const create = await clara.call('createEvent', draft);
    expect([create.status, create.body.error]).toEqual(notOrganizer);
    const list = await clara.call('getMyEvents');
    expect([list.status, list.body.error]).toEqual(notOrganizer);
    const publish = await clara.call('setEventPublished', { eventIdentifier, published: false });
    expect([publish.status, publish.body.error]).toEqual(notOrganizer);
    expect((await t.client().call('createEvent', draft)).status).toBe(401);
    expect((await olga.call('setEventPublished', { eventIdentifier: 'no-such-event', published: true })).status).toBe(
      404,
    );
  });

  it('makes an uploaded cover through the media pipeline, processing until it is ready', async () => {
    const { eventIdentifier } = await created(olga, { ...draft, name: 'Cover Test' });
    const refused = await olga.call('uploadEventCover', { eventIdentifier, contentType: 'image/svg+xml' });
    expect([refused.status, refused.body.field]).toEqual([400, 'contentType']);

    const upload = await olga.call('uploadEventCover', { eventIdentifier, contentType: 'image/png' });
    expect(upload.status, upload.body.error).toBe(200);
    const url = upload.body.uploadUrl.replace(t.config.filesOrigin, t.url);
    const png = new Blob([new Uint8Array(gradientPng(320, 160, 7))]);
    const forged = await t.client().fetch(url.replace(/token=[^&]+/, 'token=forged'), {
      method: 'PUT',
      body: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(forged.status).toBe(403);
    const put = await t.client().fetch(url, { method: 'PUT', body: png, headers: { 'content-type': 'image/png' } });
    expect(put.status, put.body.error).toBe(200);

    const event = await until(
      async () =>
        (await olga.call('getMyEvents')).body.events.find(
          (e) => e.eventIdentifier === eventIdentifier && !e.coverProcessing,
        ),
      'the cover made of the upload',
      20_000,
    );
    const cover = present(event.cover, 'the cover made of the upload');
    expect(event.coverUrl).toMatch(/\/media\/media\/cover\//);
    expect(cover.sources.length).toBeGreaterThan(0);
    // Taken once: the upload URL's file is the source, gone once the cover was made.
    const again = await t.client().fetch(url, { method: 'PUT', body: png, headers: { 'content-type': 'image/png' } });
    expect(again.status).toBe(403);
  });
});
