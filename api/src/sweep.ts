import { randomUUID } from 'node:crypto';
import { messageOf } from '@marketplace/shared/errors';
import { LOGIN_THROTTLE_RULES } from './auth/loginThrottle.js';
import { dropAbandonedUploads, dropStrayQuarantine, settleUploads } from './files/uploads.js';
import { IDEMPOTENCY_KEEP_MS } from './http/idempotency.js';
import { resendStalled } from './media/jobs.js';
import { endSessionAndLiveAccess, type Services } from './services.js';

/** Rows one step of the sweep handles at a time: a pass never holds a long transaction or a large result. */
export const SWEEP_BATCH = 500;
/** A target processing this long may have lost its job (sent again, once per key). */
const STALLED_MEDIA_MS = 2 * 60_000;
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
      /** Sent mails pruned from the mail outbox. */
      mail: number;
      /** Password reset links past their time, removed. */
      resets: number;
      /** Open purchases past their time, ended unpaid. */
      purchases: number;
      /** Broker users closed because their session was gone (ended while the broker could not be told); null: the broker could not be asked. */
      liveClosed: number | null;
    };

/**
 * Ends up to `limit` sessions past their expiry: their rows go, then their pages' broker
 * connections on every node. Every instance runs it each second (server.ts), so a session's live
 * access ends within about a second of its expiry; no lease, as ending one twice is harmless and
 * finding none is one indexed read.
 */
export async function endExpiredSessions(services: Services, limit: number): Promise<number> {
  const { repos } = services;
  const keys = await repos.sessions.expiredKeys(limit);
  for (const key of keys) await endSessionAndLiveAccess(services, key, () => repos.sessions.delete(key));
  return keys.length;
}

export interface Sweeper {
  /** One pass now, if this instance holds (or takes) the sweep's lease and no pass of its own is under way. */
  pass(): Promise<SweepPass>;
  /** Lets the lease go, so another instance takes over at once (shutdown). */
  release(): Promise<void>;
}

/**
 * The periodic work: sessions past their end go, and their pages' broker connections with them;
 * connections of sessions that ended while the broker could not be told are closed; beacons, failed logins, rate windows, idempotency keys and sent live messages past their
 * keeping time go;
 * uploads sent straight to an object store are settled, abandoned ones removed, and quarantine
 * objects no waiting upload owns (one written again after its upload was accepted) removed; media jobs
 * lost before they were queued are queued again.
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
        const sessions = await inBatches(() => endExpiredSessions(services, SWEEP_BATCH));
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
        // Sent mail is kept a day too; reset links go once expired (used ones with them).
        const mail = await inBatches(() => repos.mailOutbox.prune(before(OUTBOX_KEEP_MS), SWEEP_BATCH));
        const resets = await inBatches(() => repos.passwordResets.prune(before(0), SWEEP_BATCH));
        // A purchase not paid in its time ends unpaid; a payment arriving later still settles it.
        const purchases = await inBatches(() => repos.purchases.expireDue(new Date(now), SWEEP_BATCH));
        const liveClosed = await services.live
          .closeEnded((liveId) => repos.sessions.isLive(liveId))
          .catch((error: unknown) => {
            console.error(`[sweep] broker connections: ${messageOf(error)}`);
            return null;
          });
        await settleUploads(services, undefined, SWEEP_BATCH);
        await inBatches(() => dropAbandonedUploads(services, SWEEP_BATCH));
        await dropStrayQuarantine(services);
        // A media job lost between an upload's commit and its queueing (the process died) is
        // queued again; one still waiting or running is not doubled (media/queue.ts).
        await resendStalled(services.media, services, before(STALLED_MEDIA_MS), SWEEP_BATCH);
        return { ran: true, sessions, beacons, failures, windows, keys, outbox, mail, resets, purchases, liveClosed };
      } finally {
        running = false;
      }
    },
    release: () => repos.leases.release('sweep', holder),
  };
}
