/** Where hits are counted: shared by every instance (the rate_windows table). */
export interface HitCounter {
  /** Counts one hit of `key` in the window starting at `windowStart` (epoch ms); answers the window's hits so far, this one included. */
  hit(key: string, windowStart: number): Promise<number>;
}

/**
 * A fixed-window count per key: at most `limit` hits in each `windowMs`, then the key waits for
 * the next window. Enough for beacons, which matter in aggregate (a page load sends a few); the
 * login limiter keeps its own sliding log. Windows are aligned to the clock and counted in the
 * database, so a client spreading its hits over the instances gets one share, not one per instance.
 */
export class RateWindow {
  constructor(
    private readonly counter: HitCounter,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit; returns 0 when allowed, else the whole seconds until this key's next window. */
  async hit(key: string): Promise<number> {
    const now = this.now();
    const start = now - (now % this.windowMs);
    if ((await this.counter.hit(key, start)) <= this.limit) return 0;
    return Math.max(1, Math.ceil((start + this.windowMs - now) / 1000));
  }
}
