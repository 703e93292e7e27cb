/**
 * Retries that act once (issue 36, item 3): a state-changing call with an Idempotency-Key runs
 * once per key and caller; the same key again is answered from the first run. Both engines; the
 * same across instances, and a retry while the first run is under way, in instances.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GUEST_CART_COOKIE, SESSION_COOKIE } from '../src/auth/sessions.js';
import { DEMO_PASSWORD, useTestApi } from './harness.js';

const t = useTestApi({ API_TRUST_PROXY: 'true' });
const keyed = (key: string) => ({ headers: { 'idempotency-key': key } });

const messagesWith = async (content: string) =>
  (await t().rows<{ n: number }>`SELECT COUNT(*) AS n FROM chat_messages WHERE content = ${content}`)[0]?.n;

describe('Idempotency-Key', () => {
  it('acts once for a key sent twice, and answers the retry with the first answer', async () => {
    const clara = await t().as('clara');
    const key = randomUUID();
    const content = `once ${key}`;
    const first = await clara.call('sendChatMessage', { profileName: 'mia', content }, keyed(key));
    const retry = await clara.call('sendChatMessage', { profileName: 'mia', content }, keyed(key));
    expect(first.status).toBe(200);
    expect([retry.status, retry.body]).toEqual([200, first.body]);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(await messagesWith(content)).toBe(1);
    // Without a key, or with a new one, each request is its own action.
    await clara.call('sendChatMessage', { profileName: 'mia', content });
    await clara.call('sendChatMessage', { profileName: 'mia', content }, keyed(randomUUID()));
    expect(await messagesWith(content)).toBe(3);
  });

  it('refuses a key used again for another request with 422, and applies nothing', async () => {
    const clara = await t().as('clara');
    const key = randomUUID();
    await clara.call('sendChatMessage', { profileName: 'mia', content: `first ${key}` }, keyed(key));
    const other = await clara.call('sendChatMessage', { profileName: 'mia', content: `second ${key}` }, keyed(key));
    expect(other.status).toBe(422);
    expect(other.body.error).toMatch(/another request/);
    expect(await messagesWith(`second ${key}`)).toBe(0);
    const elsewhere = await clara.call('sendChatMessage', { profileName: 'leo', content: `first ${key}` }, keyed(key));
    expect(elsewhere.status).toBe(422);
  });

  it("keeps one caller's key apart from another's", async () => {
    const key = randomUUID();
    const content = `shared key ${key}`;
    const clara = await t().as('clara');
    const max = await t().as('max');
    expect((await clara.call('sendChatMessage', { profileName: 'mia', content }, keyed(key))).status).toBe(200);
    const fromMax = await max.call('sendChatMessage', { profileName: 'mia', content }, keyed(key));
    expect([fromMax.status, fromMax.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(await messagesWith(content)).toBe(2);
  });

  it('answers a retried cancel with its success, not with "no longer cancellable", and notifies once', async () => {
    const clara = await t().as('clara');
    const key = randomUUID();
    const cancel = () => clara.call('updateEventOrderStatus', { orderId: 'ord-1003', status: 'CANCELLED' }, keyed(key));
    const replies = [await cancel(), await cancel()];
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    const [notices] = await t().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM notifications WHERE content LIKE ${'%cancelled order ord-1003%'}`;
    expect(notices?.n).toBe(1);
  });

  it("answers a guest's retried login with 409, never with the first run's session", async () => {
    const key = randomUUID();
    const guestCart = randomUUID().replaceAll('-', '');
    const first = t().client();
    first.cookies.set(GUEST_CART_COOKIE, guestCart);
    expect((await first.call('login', { login: 'leo', password: DEMO_PASSWORD }, keyed(key))).status).toBe(200);
    const token = first.cookies.get(SESSION_COOKIE) ?? '';
    expect(token).not.toBe('');
    // The same browser's retry (its guest cookie) whose first answer was lost: no copy of that session.
    const retry = t().client();
    retry.cookies.set(GUEST_CART_COOKIE, guestCart);
    const replayed = await retry.call('login', { login: 'leo', password: DEMO_PASSWORD }, keyed(key));
    expect([replayed.status, replayed.headers.get('idempotent-replayed')]).toEqual([409, 'true']);
    expect(replayed.body.error).toMatch(/log in again/);
    expect(replayed.headers.getSetCookie().join('\n')).not.toContain(token);
    expect(JSON.stringify(replayed.body)).not.toContain(token);
    expect(retry.cookies.has(SESSION_COOKIE)).toBe(false);
    expect((await retry.call('checkAuthentication')).status).toBe(401);
    const [kept] = await t().rows<{ response: string }>`
      SELECT response FROM idempotency_keys WHERE idempotency_key = ${key}`;
    expect(kept?.response).not.toContain(token);
  });

  it('gives anonymous callers no shared scope: two with the same key each get their own answer', async () => {
    const key = randomUUID();
    const [one, two] = [t().client(), t().client()];
    const replies = [
      await one.call('login', { login: 'leo', password: DEMO_PASSWORD }, keyed(key)),
      await two.call('login', { login: 'leo', password: DEMO_PASSWORD }, keyed(key)),
    ];
    expect(replies.map((r) => [r.status, r.headers.get('idempotent-replayed')])).toEqual([
      [200, null],
      [200, null],
    ]);
    const tokens = [one.cookies.get(SESSION_COOKIE), two.cookies.get(SESSION_COOKIE)];
    expect(tokens.every(Boolean)).toBe(true);
    expect(tokens[0]).not.toBe(tokens[1]);
    expect((await two.call('checkAuthentication')).status).toBe(200);
    const [stored] = await t().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM idempotency_keys WHERE idempotency_key = ${key}`;
    expect(Number(stored?.n)).toBe(0);
  });

  it('refuses a malformed key with 400', async () => {
    const clara = await t().as('clara');
    const res = await clara.call('sendChatMessage', { profileName: 'mia', content: 'x' }, keyed('short'));
    expect([res.status, res.body.error]).toEqual([400, 'Idempotency-Key must be 8 to 255 visible ASCII characters']);
  });

  it("answers a guest's retried wrong password from its first answer, without counting a second failure", async () => {
    const key = randomUUID();
    const from = {
      headers: {
        'idempotency-key': key,
        'x-forwarded-for': '203.0.113.60',
        cookie: `${GUEST_CART_COOKIE}=${randomUUID().replaceAll('-', '')}`,
      },
    };
    const replies = [
      await t().client().call('login', { login: 'nobody', password: 'x' }, from),
      await t().client().call('login', { login: 'nobody', password: 'x' }, from),
    ];
    expect(replies.map((r) => [r.status, r.headers.get('idempotent-replayed')])).toEqual([
      [401, null],
      [401, 'true'],
    ]);
    const [failures] = await t().rows<{ n: number }>`
      SELECT COUNT(*) AS n FROM login_failures WHERE throttle_key = ${'client:203.0.113.60'}`;
    expect(failures?.n).toBe(1);
  });
});
