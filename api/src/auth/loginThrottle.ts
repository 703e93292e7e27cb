/**
 * Slows and then refuses repeated failed logins, so a password cannot be guessed at the speed
 * of the server.
 *
 * - A failed answer is delayed once an account, or one client, has failed more than
 *   `freeFailures` times in the window (slowed). Only failed answers wait: a right password is
 *   answered at once whoever else is guessing.
 * - One client that failed `refuseAfterPerAccount` times on one account, or `refuseAfterPerClient`
 *   times over all accounts, is refused with 429 until its oldest counted failure leaves the
 *   window (refused). Refusals are per client on purpose: counting an account's failures from
 *   every client would let anyone lock the account's owner out.
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
  refuseAfterPerAccount: number;
  refuseAfterPerClient: number;
}

export const LOGIN_THROTTLE_RULES: ThrottleRules = {
  windowMs: 15 * 60_000,
  freeFailures: 3,
  slowMsPerFailure: 250,
  maxSlowSteps: 8,
  refuseAfterPerAccount: 10,
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
  /** The password was right: the attempt and this client's earlier guesses at the account are forgotten. */
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
   * record, so at most `refuseAfterPerAccount` passwords of one client and account are checked
   * per window, however many instances and requests run at once.
   */
  async admit(account: string, client: string): Promise<Admission> {
    const keys = [pairKey(account, client), clientKey(client), accountKey(account)];
    // Already refused: answered without writing anything, so a refused client costs one read.
    const refused = await this.retryAfterSeconds(account, client);
    if (refused > 0) return { refusedForSeconds: refused };
    const ids = await this.log.add(keys, this.now());
    const times = await this.log.times(keys, this.now() - this.rules.windowMs);
    const count = (key: string | undefined) => times.get(key as string)?.length ?? 0;
    if (count(keys[0]) > this.rules.refuseAfterPerAccount || count(keys[1]) > this.rules.refuseAfterPerClient) {
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

  /** Whole seconds this client must wait before trying this account again; 0 when it may try now. */
  async retryAfterSeconds(account: string, client: string): Promise<number> {
    const pair = pairKey(account, client);
    const own = clientKey(client);
    const times = await this.log.times([pair, own], this.now() - this.rules.windowMs);
    const wait = Math.max(
      this.waitMs(times.get(pair) ?? [], this.rules.refuseAfterPerAccount),
      this.waitMs(times.get(own) ?? [], this.rules.refuseAfterPerClient),
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

// JSON keeps the pair unambiguous whatever the two hold.
const pairKey = (account: string, client: string) => `pair:${JSON.stringify([account, client])}`;
const clientKey = (client: string) => `client:${client}`;
const accountKey = (account: string) => `account:${account}`;
