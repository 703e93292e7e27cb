import { randomUUID } from 'node:crypto';
import { LOGIN_THROTTLE_RULES } from './auth/loginThrottle.js';
import { dropAbandonedUploads, settleUploads } from './files/uploads.js';
import { IDEMPOTENCY_KEEP_MS } from './http/idempotency.js';
import { endLiveAccess, type Services } from './services.js';

/** Rows one step of the sweep handles at a time: a pass never holds a long transaction or a large result. */
export const SWEEP_BATCH = 500;
/** How long a sent live message stays in the outbox (what was published, and when, for a day). */
export const OUTBOX_KEEP_MS = 24 * 3600_000;

/** What one pass did, or why it did nothing. */
export type SweepPass =
  | { ran: false; reason: 'running' | 'another instance holds the sweep' }
  | {
      ran: true;
      sessions: number;
      beacons: number;
      failures: number;
      windows: number;
      keys: number;
      /** Sent live messages pruned from the outbox. */
      outbox: number;
    };

export interface Sweeper {
  /** One pass now, if this instance holds (or takes) the sweep's lease and no pass of its own is under way. */
  pass(): Promise<SweepPass>;
  /** Lets the lease go, so another instance takes over at once (shutdown). */
  release(): Promise<void>;
}

/**
 * The periodic work: sessions past their end lose their broker logins (and connections), then
 * go; beacons, failed logins, rate windows, idempotency keys and sent live messages past their
 * keeping time go;
 * uploads sent straight to an object store are settled, and abandoned ones removed.
 *
 * One instance sweeps at a time: the pass runs under a lease in the database (leases table), held
 * for `intervalMs` and renewed between batches by its holder, so the instance that has it keeps
 * it while it lives and another takes over within about two intervals when it dies. A pass never
 * overlaps the same instance's previous one, and every step works in batches.
 */
export function createSweeper(services: Services, intervalMs: number): Sweeper {
  const { repos, config } = services;
  const holder = `${config.instance}:${randomUUID()}`;
  const lease = () => repos.leases.acquire('sweep', holder, new Date(), new Date(Date.now() + 2 * intervalMs));
  let running = false;

  /** Runs `step` until it does less than a batch, renewing the lease between batches; answers the total. */
  const inBatches = async (step: () => Promise<number>): Promise<number> => {
    let total = 0;
    for (;;) {
      const done = await step();
      total += done;
      if (done < SWEEP_BATCH) return total;
      if (!(await lease())) throw new Error('the sweep lease was lost mid-pass');
    }
  };

  return {
    async pass() {
      if (running) return { ran: false, reason: 'running' };
      running = true;
      try {
        if (!(await lease())) return { ran: false, reason: 'another instance holds the sweep' };
        const now = Date.now();
        const sessions = await inBatches(async () => {
          const tokens = await repos.sessions.expiredTokens(SWEEP_BATCH);
          for (const token of tokens) {
            await endLiveAccess(services, token);
            await repos.sessions.delete(token);
          }
          return tokens.length;
        });
        const before = (ms: number) => new Date(now - ms).toISOString();
        const beacons = await inBatches(() => repos.rum.prune(before(config.rumKeepDays * 86_400_000), SWEEP_BATCH));
        const failures = await inBatches(() =>
          repos.loginFailures.prune(before(LOGIN_THROTTLE_RULES.windowMs), SWEEP_BATCH),
        );
        // A beacon window is a minute, a client's page loads' an hour (routes/rum.ts): an hour past
        // the longest is plenty for any clock skew between instances.
        const windows = await inBatches(() => repos.rateWindows.prune(before(2 * 3600_000), SWEEP_BATCH));
        const keys = await inBatches(() => repos.idempotency.prune(before(IDEMPOTENCY_KEEP_MS), SWEEP_BATCH));
        const outbox = await inBatches(() => repos.liveOutbox.prune(before(OUTBOX_KEEP_MS), SWEEP_BATCH));
        await settleUploads(services, undefined, SWEEP_BATCH);
        await inBatches(() => dropAbandonedUploads(services, SWEEP_BATCH));
        return { ran: true, sessions, beacons, failures, windows, keys, outbox };
      } finally {
        running = false;
      }
    },
    release: () => repos.leases.release('sweep', holder),
  };
}
