import { clientGroup } from '../http/client.js';

/**
 * Slows and then refuses repeated failed logins, so a password cannot be guessed at the speed
 * of the server.
 *
 * - A failed answer is delayed once an account, or one client, has failed more than
 *   `freeFailures` times in the window (slowed). Only failed answers wait: a right password is
 *   answered at once whoever else is guessing.
 * - A client is counted by its group (clientGroup: an IPv6 client by its /64), since one
 *   subscriber can pick any address of its /64 at will.
 * - One client that failed `refuseAfterPerClient` times over all accounts is refused with 429
 *   until its oldest counted failure leaves the window.
 * - An account that failed `lockAccountAfter` times in the window, from any clients, is locked:
 *   every attempt at it is refused, the right password included, until enough of its failures
 *   leave the window or its owner completes a password reset (`unlock`). Without this, guesses
 *   spread over many networks would have no limit. The lock lasts at most one window and is not
 *   one that only a reset lifts: anyone who knows an email address can lock its account, and a
 *   lock for good would let them keep the owner out for as long as they like; a time-limited one
 *   costs the owner at most one window, or the reset mail. While an attacker keeps it locked,
 *   they get `lockAccountAfter` guesses per window and no more.
 * - Unknown accounts are counted exactly like known ones (the route names them by what was typed),
 *   so the answers never tell which accounts exist.
 *
 * The failures are kept in the database (FailureLog), not in the process: a client spreading its
 * guesses over several API instances is counted as one.
 */
export interface ThrottleRules {
  windowMs: number;
  freeFailures: number;
  slowMsPerFailure: number;
  /** The longest hold is this many steps of `slowMsPerFailure`. */
  maxSlowSteps: number;
  /** Failures of one account, from all clients together, that lock it for the rest of the window. */
  lockAccountAfter: number;
  refuseAfterPerClient: number;
}

export const LOGIN_THROTTLE_RULES: ThrottleRules = {
  windowMs: 15 * 60_000,
  freeFailures: 3,
  slowMsPerFailure: 250,
  maxSlowSteps: 8,
  // Ten tries in a quarter of an hour is room for an owner's typos and a forgotten password or
  // two, and holds a guesser to under a thousand tries a day against any one account.
  lockAccountAfter: 10,
  refuseAfterPerClient: 30,
};

/** Where failures are counted: shared by every instance (the login_failures table). */
export interface FailureLog {
  /** The failure times (epoch ms) of each key since `since`, oldest first; a key with none is absent. */
  times(keys: string[], since: number): Promise<Map<string, number[]>>;
  /** Records one attempt at `at` under each key; answers the records' ids, to take it back. */
  add(keys: string[], at: number): Promise<number[]>;
  /** Takes back the records `add` answered. */
  remove(ids: number[]): Promise<void>;
  forget(key: string): Promise<void>;
}

/** The outcome of asking to try a password: refused for some seconds, or an attempt already counted. */
export type Admission = { refusedForSeconds: number } | { attempt: LoginAttempt };

/** An attempt counted as a failure until its password proves right. */
export interface LoginAttempt {
  /** The password was wrong: the attempt stays counted; answers how long to hold the answer back (ms). */
  failed(): Promise<number>;
  /**
   * The password was right: the account's failures are forgotten, so an owner's own typos do not
   * add up over the window. Only the right password gets here, and never while the account is
   * locked, so this gives a guesser nothing.
   */
  succeeded(): Promise<void>;
}

export class LoginThrottle {
  constructor(
    private readonly log: FailureLog,
    private readonly rules: ThrottleRules = LOGIN_THROTTLE_RULES,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts an attempt BEFORE its password is checked, so guesses sent at once cannot all read a
   * count under the limit: each attempt's record is written first, then the records are counted,
   * and an attempt whose count (its own record included) passes a limit is refused and taken
   * back. Of any set of attempts let through, the last one written counted every other one's
   * record, so at most `lockAccountAfter` passwords of one account are checked per window,
   * however many clients, instances and requests run at once.
   */
  async admit(account: string, client: string): Promise<Admission> {
    const keys = [accountKey(account), clientKey(client)];
    // Already refused: answered without writing anything, so a refused client costs one read.
    const refused = await this.retryAfterSeconds(account, client);
    if (refused > 0) return { refusedForSeconds: refused };
    const ids = await this.log.add(keys, this.now());
    const times = await this.log.times(keys, this.now() - this.rules.windowMs);
    const count = (key: string | undefined) => times.get(key as string)?.length ?? 0;
    if (count(keys[0]) > this.rules.lockAccountAfter || count(keys[1]) > this.rules.refuseAfterPerClient) {
      await this.log.remove(ids);
      return { refusedForSeconds: Math.max(await this.retryAfterSeconds(account, client), 1) };
    }
    return {
      attempt: {
        failed: async () => {
          const beyond = Math.max(...keys.map(count)) - this.rules.freeFailures;
          return Math.min(Math.max(beyond, 0), this.rules.maxSlowSteps) * this.rules.slowMsPerFailure;
        },
        succeeded: async () => {
          await this.log.remove(ids);
          await this.log.forget(keys[0] as string);
        },
      },
    };
  }

  /** Lifts an account's lock: its owner proved they hold its mail by completing a password reset. */
  async unlock(account: string): Promise<void> {
    await this.log.forget(accountKey(account));
  }

  /** Whole seconds this client must wait before trying this account again; 0 when it may try now. */
  async retryAfterSeconds(account: string, client: string): Promise<number> {
    const keys = [accountKey(account), clientKey(client)] as const;
    const times = await this.log.times([...keys], this.now() - this.rules.windowMs);
    const wait = Math.max(
      this.waitMs(times.get(keys[0]) ?? [], this.rules.lockAccountAfter),
      this.waitMs(times.get(keys[1]) ?? [], this.rules.refuseAfterPerClient),
    );
    return Math.ceil(wait / 1000);
  }

  private waitMs(times: number[], limit: number): number {
    if (times.length < limit) return 0;
    // Allowed again once enough failures have left the window to bring the count under the limit.
    const release = (times[times.length - limit] as number) + this.rules.windowMs;
    return Math.max(release - this.now(), 1);
  }
}

const clientKey = (client: string) => `client:${clientGroup(client)}`;
const accountKey = (account: string) => `account:${account}`;
