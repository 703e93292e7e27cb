import type { LiveKind, LivePayloads } from '@marketplace/shared';

type Handler = (payload: never) => void;
const handlers = new Map<string, Set<Handler>>();

/**
 * Stands in for the live channel in component tests (the broker is the network edge; the e2e
 * tests use the real one). It has the channel's subscribe/close shape and lets a test publish.
 */
export const fakeLive = {
  subscribe<K extends LiveKind>(kind: K, profileName: string, handler: (payload: LivePayloads[K]) => void): () => void {
    const topic = `${kind}/${profileName}`;
    const set = handlers.get(topic) ?? new Set<Handler>();
    set.add(handler as Handler);
    handlers.set(topic, set);
    return () => set.delete(handler as Handler);
  },
  close() {
    handlers.clear();
  },
};

/** Delivers a payload to every subscriber of the topic, as the channel does after validating it. */
export function publish<K extends LiveKind>(kind: K, profileName: string, payload: LivePayloads[K]): void {
  for (const handler of handlers.get(`${kind}/${profileName}`) ?? []) (handler as (p: LivePayloads[K]) => void)(payload);
}

export const subscriberCount = (kind: LiveKind, profileName: string) => handlers.get(`${kind}/${profileName}`)?.size ?? 0;
