/**
 * A fixed-window count per key: at most `limit` hits in each `windowMs`, then the key waits for
 * the next window. Enough for beacons, which matter in aggregate (a page load sends a few); the
 * login limiter keeps its own sliding log. Bounded: past `maxKeys` the oldest windows are dropped.
 */
export class RateWindow {
  private readonly windows = new Map<string, { start: number; hits: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 50_000,
  ) {}

  /** Counts a hit; returns 0 when allowed, else the whole seconds until this key's next window. */
  hit(key: string): number {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      this.windows.delete(key);
      window = { start: now, hits: 0 };
      this.windows.set(key, window);
      if (this.windows.size > this.maxKeys) this.windows.delete(this.windows.keys().next().value as string);
    }
    if (window.hits >= this.limit) return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
    window.hits += 1;
    return 0;
  }
}
