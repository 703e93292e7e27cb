import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTimeout } from './timeout.mjs';

describe('withTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("gives the promise's value when it settles in time, and leaves no timer", async () => {
    const value = withTimeout(Promise.resolve('loaded'), 1000, () => new Error('late'));
    await expect(value).resolves.toBe('loaded');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("gives the promise's own rejection when it fails in time", async () => {
    const failed = withTimeout(Promise.reject(new Error('refused')), 1000, () => new Error('late'));
    await expect(failed).rejects.toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects with the timeout error once the time has passed, and ignores a later outcome', async () => {
    let settle: (value: string) => void = () => {};
    const slow = new Promise<string>((resolve) => (settle = resolve));
    const timeoutError = vi.fn(() => new RangeError('no answer in 1000 ms'));
    const limited = withTimeout(slow, 1000, timeoutError);
    const outcome = limited.catch((error: unknown) => error);

    await vi.advanceTimersByTimeAsync(999);
    expect(timeoutError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toHaveProperty('message', 'no answer in 1000 ms');

    settle('too late');
    await expect(limited).rejects.toBe(error);
    expect(timeoutError).toHaveBeenCalledTimes(1);
  });
});
