import type { LivePayloads } from '@marketplace/shared/contract';
import { LIVE_TOPICS } from '@marketplace/shared/contract';

export type LiveKind = keyof LivePayloads;

/** A session whose live access ends: its stored key (the hash of its token: the embedded broker's key) and its broker username. */
export interface EndedSession {
  token: string;
  username: string;
}

/** Where server events go: the embedded broker, or an external one (RabbitMQ's cluster). */
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
   * Closes the connections of a session that ended (logout, expiry), on every node; its login is
   * refused from then on, as the broker checks the session at each connect. Rejects when the
   * broker could not be told (the sweep's `closeEnded` closes them later).
   */
  endSession(session: EndedSession): Promise<void>;
  /**
   * Closes the connections whose session is gone (`isLive` says no): ended while the broker could
   * not be told. Answers how many it closed.
   */
  closeEnded(isLive: (liveId: string) => Promise<boolean>): Promise<number>;
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
