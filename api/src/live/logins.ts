import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a page's broker login says: whose session it belongs to, for which user. */
export interface LiveIdentity {
  /** The session's live id (sessions.live_id): not its token, which is a secret cookie. */
  liveId: string;
  profileName: string;
}

/** A session's id on the broker: random, unrelated to its token. */
export const newLiveId = () => randomBytes(12).toString('base64url');

/** A broker login: a username naming the session and user, a password the API signed. */
export interface LiveLogin {
  username: string;
  password: string;
}

const PREFIX = 's';
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * Broker logins without a broker write (issue 40, item 2): the username is `s.<liveId>.<profile>`
 * (one per session, so the broker can close every connection of a session by its username), the
 * password `<expiry>.<HMAC of username and expiry>`. The broker asks the API to check it at each
 * connect (routes/brokerAuth.ts), which also checks that the session still lives; a password
 * stops opening connections at its expiry, and a page asks for a fresh one when refused.
 */
export function liveLogins(key: Buffer, ttlMs: number) {
  const signature = (username: string, expiry: string) =>
    createHmac('sha256', key).update(`${username}|${expiry}`).digest('base64url');

  /** The identity a username names, or null for one the API did not make (the API's own, say). */
  const parse = (username: string): LiveIdentity | null => {
    const [prefix, liveId, profile, ...rest] = username.split('.');
    if (prefix !== PREFIX || !liveId || !profile || rest.length > 0) return null;
    const profileName = Buffer.from(profile, 'base64url').toString('utf8');
    // base64url decoding ignores what is not base64url; only a canonical spelling is one of ours.
    return b64(profileName) === profile ? { liveId, profileName } : null;
  };

  const usernameOf = ({ liveId, profileName }: LiveIdentity) => `${PREFIX}.${liveId}.${b64(profileName)}`;

  return {
    usernameOf,

    issue(identity: LiveIdentity, now = Date.now()): LiveLogin {
      const username = usernameOf(identity);
      const expiry = String(Math.ceil((now + ttlMs) / 1000));
      return { username, password: `${expiry}.${signature(username, expiry)}` };
    },

    parse,

    /** The identity of a login the API signed and that has not expired; null otherwise. */
    verify(username: string, password: string, now = Date.now()): LiveIdentity | null {
      const identity = parse(username);
      const [expiry, given, ...rest] = password.split('.');
      if (!identity || !expiry || !given || rest.length > 0 || !/^\d{1,12}$/.test(expiry)) return null;
      if (Number(expiry) * 1000 <= now) return null;
      const a = Buffer.from(given);
      const b = Buffer.from(signature(username, expiry));
      return a.length === b.length && timingSafeEqual(a, b) ? identity : null;
    },
  };
}

export type LiveLogins = ReturnType<typeof liveLogins>;

/** MQTT topics as RabbitMQ routes them: `/` separates words, which the topic exchange spells `.` (and `.` as `/`). */
export const routingKeyOf = (topic: string) => topic.replace(/[./]/g, (c) => (c === '/' ? '.' : '/'));
