import { describe, expect, it } from 'vitest';
import { useTestApi } from './harness.js';

const t = useTestApi();

describe('own profile and settings', () => {
  it('returns the own profile with email and bio', async () => {
    const ivy = await t().as('ivy');
    const res = await ivy.call('getOwnProfile');
    expect(res.body).toMatchObject({
      profileName: 'ivy',
      email: 'ivy@example.com',
      bio: 'Portraits at events.',
      roles: ['MEDIA'],
    });
  });

  it('changes username, email and bio, validating each', async () => {
    const ivy = await t().as('ivy');
    const res = await ivy.call('updateProfile', { username: 'Ivy S.', bio: 'New bio' });
    expect(res.body).toMatchObject({ username: 'Ivy S.', bio: 'New bio', email: 'ivy@example.com' });
    expect((await ivy.call('getUserInfo')).body.username).toBe('Ivy S.');
    expect((await ivy.call('updateProfile', { email: 'nope' })).body).toEqual({
      error: "Invalid field 'email': Email is invalid",
      field: 'email',
    });
    expect((await ivy.call('updateProfile', { email: 'mia@example.com' })).status).toBe(409);
    expect((await ivy.call('updateProfile', {})).status).toBe(400);
    expect((await t().client().call('getOwnProfile')).status).toBe(401);
  });
});

describe('role pages', () => {
  it('gives organisers their events and refuses others with 403', async () => {
    const olga = await t().as('olga');
    const events = (await olga.call('getMyEvents')).body.events.map(
      (e: { eventIdentifier: string }) => e.eventIdentifier,
    );
    expect(events).toEqual(['winter-gala-2026', 'summer-jazz-night-2026']);
    const mia = await t().as('mia');
    const refused = await mia.call('getMyEvents');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/EVENT_ORGANIZER/);
  });

  it('gives MEDIA users their packages and discount codes and refuses others', async () => {
    const mia = await t().as('mia');
    expect((await mia.call('getMediaPackages')).body.mediaPackages.map((p: { name: string }) => p.name)).toEqual([
      'Essentials',
      'Full evening',
      'Premium',
    ]);
    expect((await mia.call('getDiscountCodes')).body.discountCodes.map((d: { code: string }) => d.code)).toEqual([
      'MIA10',
      'MIAWINTER25',
    ]);
    const dave = await t().as('dave');
    expect((await dave.call('getMediaPackages')).status).toBe(403);
    expect((await dave.call('getDiscountCodes')).status).toBe(403);
    expect((await t().client().call('getMediaPackages')).status).toBe(401);
  });
});

describe('contact form', () => {
  const message = { name: 'Pat', email: 'pat@example.com', subject: 'Hello', message: 'A question about orders.' };

  it('accepts a multipart message without credentials and stores it', async () => {
    const res = await t().client().call('submitContactInfo', message, { origin: 'http://localhost:3000' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true });
    const rows = await t()
      .rows`SELECT name, email, subject, message FROM contact_messages WHERE email = ${'pat@example.com'}`;
    expect(rows).toEqual([message]);
  });

  it('refuses an invalid email or a missing field, storing nothing', async () => {
    const bad = await t()
      .client()
      .call('submitContactInfo', { ...message, email: 'pat@' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/Email is invalid/);
    expect(
      (
        await t()
          .client()
          .call('submitContactInfo', { ...message, subject: '' })
      ).body.field,
    ).toBe('subject');
    expect(await t().rows`SELECT COUNT(*) AS n FROM contact_messages WHERE email = 'pat@'`).toEqual([{ n: 0 }]);
  });
});
