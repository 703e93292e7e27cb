import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { useMswServer } from '../test/msw.js';
import { callKey, callQuery, pageCall, prefetchPageCalls } from './queries.js';

const server = useMswServer();

describe('callQuery', () => {
  it('keys a call by its name and request, and fetches it through apiCall', async () => {
    server.use(
      http.get('http://api.test/v2/events/:id', ({ params }) => HttpResponse.json({ eventIdentifier: params.id })),
    );
    const options = callQuery('getEvent', { eventIdentifier: 'jazz' });
    expect(options.queryKey).toEqual(['getEvent', { eventIdentifier: 'jazz' }]);
    expect(callQuery('getCart').queryKey).toEqual(['getCart']);
    const client = new QueryClient();
    expect(await client.fetchQuery(options)).toEqual({ eventIdentifier: 'jazz' });
  });

  it('lets a part of the request select every cached variant of a call', async () => {
    const client = new QueryClient();
    client.setQueryData(callKey('getEventOrderDetails', { orderId: 'a', sharingId: 's1' }), 1);
    client.setQueryData(callKey('getEventOrderDetails', { orderId: 'a' }), 2);
    client.setQueryData(callKey('getEventOrderDetails', { orderId: 'b' }), 3);
    const selected = client.getQueryCache().findAll({ queryKey: callKey('getEventOrderDetails', { orderId: 'a' }) });
    expect(selected.map((q) => q.state.data).sort()).toEqual([1, 2]);
  });
});

describe('prefetchPageCalls', () => {
  const orderCall = pageCall('getEventOrderDetails', { orderId: 'ord-1' });

  it('asks a call the contract says is asked once (order details) once, whoever asks: a failure is not asked again', async () => {
    let asked = 0;
    server.use(
      http.get('http://api.test/v2/eventorder/:orderId/details', () => {
        asked++;
        return HttpResponse.json({ error: 'Busy' }, { status: 503 });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });
    prefetchPageCalls(client, [orderCall]);
    await vi.waitFor(() => expect(client.getQueryState(orderCall.queryKey)?.status).toBe('error'));
    expect(asked).toBe(1);
    await expect(
      client.fetchQuery({ ...callQuery('getEventOrderDetails', { orderId: 'ord-2' }), retryDelay: 0 }),
    ).rejects.toThrow();
    expect(asked).toBe(2);
  });

  it('asks another page call again once after a failure', async () => {
    let asked = 0;
    server.use(
      http.get('http://api.test/v2/events/:id', () => {
        asked++;
        return HttpResponse.json({ error: 'Busy' }, { status: 503 });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retryDelay: 0 } } });
    const eventCall = pageCall('getEvent', { eventIdentifier: 'jazz' });
    prefetchPageCalls(client, [eventCall]);
    await vi.waitFor(() => expect(client.getQueryState(eventCall.queryKey)?.status).toBe('error'));
    expect(asked).toBe(2);
  });
});
