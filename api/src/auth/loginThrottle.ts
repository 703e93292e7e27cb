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
  /** Records one failure at `at` under each key. */
  add(keys: string[], at: number): Promise<void>;
  forget(key: string): Promise<void>;
}

export class LoginThrottle {
  constructor(
    private readonly log: FailureLog,
    private readonly rules: ThrottleRules = LOGIN_THROTTLE_RULES,
    private readonly now: () => number = Date.now,
  ) {}

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

  /** Records a failed login and returns how long to hold the answer back, in milliseconds. */
  async failed(account: string, client: string): Promise<number> {
    const keys = [pairKey(account, client), clientKey(client), accountKey(account)];
    const now = this.now();
    await this.log.add(keys, now);
    const times = await this.log.times(keys, now - this.rules.windowMs);
    const beyond = Math.max(...keys.map((key) => times.get(key)?.length ?? 0)) - this.rules.freeFailures;
    return Math.min(Math.max(beyond, 0), this.rules.maxSlowSteps) * this.rules.slowMsPerFailure;
  }

  /** A right password from this client: its guesses at this account are forgotten. */
  succeeded(account: string, client: string): Promise<void> {
    return this.log.forget(pairKey(account, client));
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
