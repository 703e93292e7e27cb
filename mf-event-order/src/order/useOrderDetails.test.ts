import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { FIRST_POLL_MS, FIRST_POLLS_FOR_MS, orderDetailsQuery, PROCESSING_POLL_MS } from './useOrderDetails.js';

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

  it('reads the order again every 500 ms in the first seconds of a file processing, every 2 s after, and not once none is', () => {
    const interval = orderDetailsQuery('ord-1', undefined).refetchInterval;
    if (typeof interval !== 'function') throw new Error('refetchInterval is not a function');
    vi.useFakeTimers({ now: 1_000_000 });
    onTestFinished(() => void vi.useRealTimers());
    const targets = (processing: string[], ready: string[] = []) => [
      ...processing.map((targetIdentifier) => ({ targetIdentifier, state: 'processing' })),
      ...ready.map((targetIdentifier) => ({ targetIdentifier, state: 'ready' })),
    ];
    // One query object across reads, as the cache keeps it; its state is each read's.
    const query = { state: { status: 'success', dataUpdateCount: 1, data: { targets: targets([]) } } };
    const read = (processing: string[], ready: string[] = [], changes: object = {}) => {
      Object.assign(query.state, { data: { targets: targets(processing, ready) }, ...changes });
      query.state.dataUpdateCount++;
      return interval(query as unknown as Parameters<typeof interval>[0]);
    };
    expect(read([])).toBe(false);
    expect(read(['a'])).toBe(FIRST_POLL_MS);
    vi.advanceTimersByTime(FIRST_POLLS_FOR_MS - 1);
    expect(read(['a'])).toBe(FIRST_POLL_MS);
    vi.advanceTimersByTime(1);
    expect(read(['a'])).toBe(PROCESSING_POLL_MS);
    // A file uploaded while another (a video) still processes is read for at once too.
    expect(read(['a', 'b'])).toBe(FIRST_POLL_MS);
    vi.advanceTimersByTime(FIRST_POLLS_FOR_MS);
    expect(read(['a'], ['b'])).toBe(PROCESSING_POLL_MS);
    expect(read([], ['a', 'b'])).toBe(false);
    // Not after an error, nor for ever.
    expect(read(['c'], [], { status: 'error' })).toBe(false);
    expect(read(['c'], [], { status: 'success', dataUpdateCount: 10_000 })).toBe(false);
  });
});
