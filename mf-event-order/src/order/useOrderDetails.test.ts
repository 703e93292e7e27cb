import { describe, expect, it } from 'vitest';
import { orderDetailsQuery } from './useOrderDetails.js';

describe('orderDetailsQuery', () => {
  it('has the query options of SPEC.md section 7: no retry, no refetch on focus, 5-minute cache', () => {
    expect(orderDetailsQuery('ord-1', 's')).toMatchObject({
      queryKey: ['getEventOrderDetails', { orderId: 'ord-1', sharingId: 's' }],
      retry: false,
      refetchOnWindowFocus: false,
      gcTime: 300_000,
      staleTime: 300_000,
    });
  });
});
