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
 */
export interface ThrottleRules {
  windowMs: number;
  freeFailures: number;
  slowMsPerFailure: number;
  /** The longest hold is this many steps of `slowMsPerFailure`. */
  maxSlowSteps: number;
  refuseAfterPerAccount: number;
  refuseAfterPerClient: number;
  /** Past this many tracked keys the oldest are forgotten, so the log cannot grow without bound. */
  maxKeys: number;
}

export const LOGIN_THROTTLE_RULES: ThrottleRules = {
  windowMs: 15 * 60_000,
  freeFailures: 3,
  slowMsPerFailure: 250,
  maxSlowSteps: 8,
  refuseAfterPerAccount: 10,
  refuseAfterPerClient: 30,
  maxKeys: 50_000,
};

export class LoginThrottle {
  /** Failure times per key, oldest first. Map order is insertion order: the first key is the oldest. */
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly rules: ThrottleRules = LOGIN_THROTTLE_RULES,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whole seconds this client must wait before trying this account again; 0 when it may try now. */
  retryAfterSeconds(account: string, client: string): number {
    const wait = Math.max(
      this.waitMs(pairKey(account, client), this.rules.refuseAfterPerAccount),
      this.waitMs(clientKey(client), this.rules.refuseAfterPerClient),
    );
    return Math.ceil(wait / 1000);
  }

  /** Records a failed login and returns how long to hold the answer back, in milliseconds. */
  failed(account: string, client: string): number {
    const counts = [pairKey(account, client), clientKey(client), accountKey(account)].map((key) => this.record(key));
    const beyond = Math.max(...counts) - this.rules.freeFailures;
    return Math.min(Math.max(beyond, 0), this.rules.maxSlowSteps) * this.rules.slowMsPerFailure;
  }

  /** A right password from this client: its guesses at this account are forgotten. */
  succeeded(account: string, client: string): void {
    this.failures.delete(pairKey(account, client));
  }

  private recent(key: string): number[] {
    const cutoff = this.now() - this.rules.windowMs;
    const times = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (times.length === 0) this.failures.delete(key);
    return times;
  }

  private waitMs(key: string, limit: number): number {
    const times = this.recent(key);
    if (times.length < limit) return 0;
    // Allowed again once enough failures have left the window to bring the count under the limit.
    const release = (times[times.length - limit] as number) + this.rules.windowMs;
    return Math.max(release - this.now(), 1);
  }

  private record(key: string): number {
    const times = [...this.recent(key), this.now()];
    this.failures.delete(key);
    this.failures.set(key, times);
    while (this.failures.size > this.rules.maxKeys) {
      const oldest = this.failures.keys().next().value as string;
      this.failures.delete(oldest);
    }
    return times.length;
  }
}

const pairKey = (account: string, client: string) => `pair:${account}\u0000${client}`;
const clientKey = (client: string) => `client:${client}`;
const accountKey = (account: string) => `account:${account}`;
