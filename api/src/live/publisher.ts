import type { LivePayloads } from '@marketplace/shared/contract';
import { LIVE_TOPICS } from '@marketplace/shared/contract';

export type LiveKind = keyof LivePayloads;

/** Where server events go: the embedded broker, or an external one (docker-compose's mosquitto). */
export interface LivePublisher {
  publish<K extends LiveKind>(kind: K, profileName: string, payload: LivePayloads[K]): void;
  /** Drops the live connections opened with this session (at logout). */
  endSession(token: string): void;
  close(): Promise<void>;
}

export function topicFor(kind: LiveKind, profileName: string): string {
  return LIVE_TOPICS[kind](profileName);
}
