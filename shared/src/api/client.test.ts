import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../test/msw.js';
import { ApiError, apiCall, apiCallWith } from './client.js';

const server = useMswServer();

describe('apiCall', () => {
  it("from a server: the visitor's cookie to a call that carries the session, the origin given, and the caller's signal", async () => {
    const seen: { url: string; cookie: string | null }[] = [];
    server.use(
      http.get('http://internal.test/v2/user/profile', ({ request }) => {
        seen.push({ url: request.url, cookie: request.headers.get('cookie') });
        return HttpResponse.json({ profileName: 'mia' });
      }),
      http.get('http://internal.test/v2/events/slow', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5000));
        return HttpResponse.json({});
      }),
    );
    const options = { cookie: 'session=s1', apiOrigin: 'http://internal.test' };
    await apiCallWith(options, 'getOwnProfile');
    expect(seen).toEqual([{ url: 'http://internal.test/v2/user/profile', cookie: 'session=s1' }]);

    const late = apiCallWith({ ...options, signal: AbortSignal.timeout(20) }, 'getEvent', {
      eventIdentifier: 'slow',
    }).catch((e: unknown) => e);
    // Abandoned, not a failure of the API's.
    expect(await late).toMatchObject({ status: 0, aborted: true });
    // A state-changing call given up is not sent again (a call with no answer otherwise is, once).
    let sends = 0;
    server.use(
      http.post('http://internal.test/v2/user/cart/addItem', async () => {
        sends++;
        await new Promise((resolve) => setTimeout(resolve, 5000));
        return HttpResponse.json({ cart: [] });
      }),
    );
    const abandoned = await apiCallWith({ ...options, signal: AbortSignal.timeout(20) }, 'addCartItem', {
      identifier: 'ci-1',
      itemType: 'CONTENT',
    }).catch((e: unknown) => e);
    expect(abandoned).toMatchObject({ status: 0, aborted: true });
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sends).toBe(1);
  });

  it("reads a lookup's 404 as not found with the API's reason", async () => {
    server.use(
      http.get('http://api.test/v2/events/:id', () => HttpResponse.json({ error: 'Event not found' }, { status: 404 })),
    );
    const failure = await apiCall('getEvent', { eventIdentifier: 'nope' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 404, message: 'Event not found' });
  });

  it('sends a form body with credentials to the configured origin', async () => {
    let seen: { body: string; type: string | null; credentials: RequestCredentials } | null = null;
    server.use(
      http.post('http://api.test/v2/user/cart/addItem', async ({ request }) => {
        seen = {
          body: await request.text(),
          type: request.headers.get('content-type'),
          credentials: request.credentials,
        };
        return HttpResponse.json({ cart: [] });
      }),
    );
    await apiCall('addCartItem', { identifier: 'ci-1', itemType: 'CONTENT' });
    expect(seen).toEqual({
      body: 'identifier=ci-1&itemType=CONTENT',
      type: expect.stringContaining('application/x-www-form-urlencoded'),
      credentials: 'include',
    });
  });

  it('sends multipart booleans as text, and the contact form without credentials', async () => {
    const bodies: Record<string, FormDataEntryValue>[] = [];
    const credentials: RequestCredentials[] = [];
    const capture = async ({ request }: { request: Request }) => {
      bodies.push(Object.fromEntries((await request.formData()).entries()));
      credentials.push(request.credentials);
      return HttpResponse.json({});
    };
    server.use(
      http.post('http://api.test/v2/updateRoles', capture),
      http.post('http://api.test/v2/submitContactInfo', capture),
    );
    await apiCall('updateRoles', { driver: true, media: false });
    await apiCall('submitContactInfo', { name: 'A', email: 'a@b.co', subject: 'S', message: 'M' });
    expect(bodies).toEqual([
      { driver: 'true', media: 'false' },
      { name: 'A', email: 'a@b.co', subject: 'S', message: 'M' },
    ]);
    expect(credentials).toEqual(['include', 'omit']);
  });

  it('fills path parameters and puts the rest in the query', async () => {
    let url = '';
    server.use(
      http.get('http://api.test/v2/eventorder/:orderId/details', ({ request }) => {
        url = request.url;
        return HttpResponse.json({});
      }),
    );
    await apiCall('getEventOrderDetails', { orderId: 'ord 1/2', sharingId: 's&1' });
    expect(url).toBe('http://api.test/v2/eventorder/ord%201%2F2/details?sharingId=s%261');
  });

  it('sends no paging on a first load', async () => {
    let url = '';
    server.use(
      http.get('http://api.test/v2/notifications', ({ request }) => {
        url = request.url;
        return HttpResponse.json({ notifications: [], more: false });
      }),
    );
    await apiCall('getNotifications');
    expect(url).toBe('http://api.test/v2/notifications');
  });

  it('turns an HTTP failure into an ApiError with its status, reason and field', async () => {
    server.use(
      http.post('http://api.test/v2/signup', () =>
        HttpResponse.json({ error: 'This profile name is taken', field: 'profileName' }, { status: 409 }),
      ),
    );
    const error = await apiCall('signup', {
      username: 'a',
      profileName: 'b',
      email: 'c@d.e',
      password: 'xxxxxxxx',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, message: 'This profile name is taken', field: 'profileName' });
  });

  it('reports a network failure as status 0', async () => {
    server.use(http.post('http://api.test/v2/logout', () => HttpResponse.error()));
    await expect(apiCall('logout')).rejects.toMatchObject({ status: 0 });
  });

  it('sends a state-changing call with a key of its own, and once more with the same key after no usable answer', async () => {
    const keys: (string | null)[] = [];
    const answers = [
      () => HttpResponse.error(),
      () => HttpResponse.json({ error: 'gateway' }, { status: 502 }),
      () => HttpResponse.json({ message: { content: 'hi' } }),
    ];
    server.use(
      http.post('http://api.test/v2/chat/sendMessage', ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        const answer = answers[keys.length - 1] ?? answers[2];
        return answer ? answer() : HttpResponse.error();
      }),
      http.get('http://api.test/v2/chat/open', ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return HttpResponse.json({ chats: [] });
      }),
    );
    // No answer, then 502: sent twice with one key, and the second failure is the caller's.
    await expect(apiCall('sendChatMessage', { profileName: 'mia', content: 'hi' })).rejects.toMatchObject({
      status: 502,
    });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[\w-]{32,36}$/);
    expect(keys[1]).toBe(keys[0]);
    // A new action: a new key, answered at the first send.
    await expect(apiCall('sendChatMessage', { profileName: 'mia', content: 'hi' })).resolves.toEqual({
      message: { content: 'hi' },
    });
    expect(keys[2]).not.toBe(keys[0]);
    // A read is never sent twice and carries no key.
    await apiCall('getOpenChats');
    expect(keys.slice(3)).toEqual([null]);
  });

  it('does not send a state-changing call again after an answer that says what happened', async () => {
    let sent = 0;
    server.use(
      http.post('http://api.test/v2/logout', () => {
        sent += 1;
        return HttpResponse.json({ error: 'Internal server error' }, { status: 500 });
      }),
    );
    await expect(apiCall('logout')).rejects.toMatchObject({ status: 500 });
    expect(sent).toBe(1);
  });
});
