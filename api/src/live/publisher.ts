import type { LivePayloads } from '@marketplace/shared/contract';
import { LIVE_TOPICS } from '@marketplace/shared/contract';

export type LiveKind = keyof LivePayloads;

/** A broker login issued to one browser page of a user's session. */
export interface LiveLogin {
  username: string;
  password: string;
  profileName: string;
}

/** Where server events go: the embedded broker, or an external one (docker-compose's mosquitto). */
export interface LivePublisher {
  /** Fire and forget (the rollbacks' announcements, which nothing stores). */
  publish<K extends LiveKind>(kind: K, profileName: string, payload: LivePayloads[K]): void;
  /**
   * Publishes a message already in JSON (the outbox's payload) at QoS 1 and resolves once the
   * broker has it; rejects at once when the broker cannot be reached, and after `timeoutMs`
   * without its acknowledgement, so the relay tries it again later. Nothing is queued in memory
   * for a broker that is down: the outbox row is the only copy that waits.
   */
  publishAsync(kind: LiveKind, profileName: string, json: string, timeoutMs: number): Promise<void>;
  /**
   * Makes a login usable on the broker: allowed to subscribe to its user's two topics and the rollbacks only and to
   * publish nothing. The embedded broker checks logins against the database itself.
   */
  admit(login: LiveLogin): Promise<void>;
  /** Revokes a session's logins and closes the connections made with them (logout, expiry). */
  endSession(token: string, usernames: string[]): Promise<void>;
  close(): Promise<void>;
}

export function topicFor(kind: LiveKind, profileName: string): string {
  return LIVE_TOPICS[kind](profileName);
}

/** The topics a user's login may subscribe to: exactly their own two, and the rollbacks every page hears. */
export const readableTopics = (profileName: string) => [
  LIVE_TOPICS.notifications(profileName),
  LIVE_TOPICS.chatNotifications(profileName),
  LIVE_TOPICS.rollbacks(),
];

/** Rejects with `what` timed out unless `promise` settles within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
