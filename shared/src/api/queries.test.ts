import { QueryClient } from '@tanstack/react-query';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { useMswServer } from '../test/msw.js';
import { callKey, callQuery } from './queries.js';

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
