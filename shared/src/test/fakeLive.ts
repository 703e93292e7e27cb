import type { LiveKind, LivePayloads } from '@marketplace/shared';

type Handler = (payload: never) => void;
const handlers = new Map<string, Set<Handler>>();
const readyCallbacks = new Map<string, Set<() => void>>();

/**
 * Stands in for the live channel in component tests (the broker is the network edge; the e2e
 * tests use the real one). It has the channel's subscribe/close shape and lets a test publish.
 */
export const fakeLive = {
  subscribe<K extends LiveKind>(
    kind: K,
    profileName: string,
    handler: (payload: LivePayloads[K]) => void,
    onSubscribed?: () => void,
  ): () => void {
    const topic = `${kind}/${profileName}`;
    const set = handlers.get(topic) ?? new Set<Handler>();
    set.add(handler as Handler);
    handlers.set(topic, set);
    const ready = readyCallbacks.get(topic) ?? new Set<() => void>();
    if (onSubscribed) ready.add(onSubscribed);
    readyCallbacks.set(topic, ready);
    return () => {
      set.delete(handler as Handler);
      if (onSubscribed) ready.delete(onSubscribed);
    };
  },
  close() {
    handlers.clear();
    readyCallbacks.clear();
  },
};

/** Delivers a payload to every subscriber of the topic, as the channel does after validating it. */
export function publish<K extends LiveKind>(kind: K, profileName: string, payload: LivePayloads[K]): void {
  for (const handler of handlers.get(`${kind}/${profileName}`) ?? [])
    (handler as (p: LivePayloads[K]) => void)(payload);
}

/** The broker confirming the topic's subscription (after a connect or a reconnect). */
export function confirmSubscription(kind: LiveKind, profileName: string): void {
  for (const callback of readyCallbacks.get(`${kind}/${profileName}`) ?? []) callback();
}
