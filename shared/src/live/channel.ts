import { LIVE_MAX_PAYLOAD_BYTES, LIVE_TOPICS, type LivePayloads } from '../contract/live.js';
import { LIVE_GUARDS } from '../contract/validate.js';
import { diagnostics } from '../diagnostics.js';

export type LiveKind = keyof LivePayloads;

/** The slice of mqtt.js's client the channel uses; tests pass a fake. */
export interface MqttLike {
  on(event: 'message', cb: (topic: string, payload: Uint8Array) => void): unknown;
  on(event: 'connect' | 'close' | 'error', cb: (arg?: unknown) => void): unknown;
  subscribe(topic: string, opts: { qos: 0 | 1 }, cb?: (err: Error | null | undefined) => void): unknown;
  unsubscribe(topic: string): unknown;
  end(force?: boolean): unknown;
}

/** The page's broker login, from the API (getLiveCredentials); it ends with the session. */
export interface LiveLogin {
  username: string;
  password: string;
}

export type Connect = (url: string, login: LiveLogin) => Promise<MqttLike>;

/** The MQTT keepalive: a ping every this many seconds on a quiet connection (see connectWithMqtt). */
export const LIVE_KEEPALIVE_SECONDS = 30;

/** `bytes` random bytes in hex (getRandomValues: pages on plain http have no randomUUID). */
const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Loads mqtt.js only when the first subscriber appears (after login), never on anonymous pages. */
const connectWithMqtt: Connect = async (url, { username, password }) => {
  const { default: mqtt } = await import('mqtt');
  // One connection per client: the channel itself connects again after any loss (SPEC.md section
  // 7: every LOGIN_RETRY_MS, host-not-found included), each time with a fresh login (one that
  // expired, or was refused without a CONNACK, as RabbitMQ 3.10's web MQTT does, is never tried
  // twice) and a fresh client id (RabbitMQ refuses an old id's subscriptions while the node that
  // held them is down). It subscribes on each connect, so mqtt.js need not.
  return mqtt.connect(url, {
    username,
    password,
    // Under the login's own name: RabbitMQ lets a login use only the subscription queues named
    // after it (api/src/routes/brokerAuth.ts), so no other login can take this page's queue over.
    clientId: `${username}-${randomHex(4)}`,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    // RabbitMQ closes a connection silent for exactly its keepalive, and mqtt.js pings only when
    // that much time has passed: at mqtt.js's default (60 s) a quiet page would drop every minute.
    keepalive: LIVE_KEEPALIVE_SECONDS,
    resubscribe: false,
    clean: true,
  }) as unknown as MqttLike;
};

/** How long to wait before asking for a broker login again after the API could not give one. */
export const LOGIN_RETRY_MS = 2000;

/** CONNACK codes for a refused login (MQTT 3.1.1: 4 bad credentials, 5 not authorised; MQTT 5: 134, 135). */
const LOGIN_REFUSED = new Set([4, 5, 134, 135]);
const isLoginRefused = (error: unknown) =>
  typeof error === 'object' &&
  error !== null &&
  'code' in error &&
  LOGIN_REFUSED.has((error as { code: unknown }).code as number);

type Handler = (payload: unknown) => void;

/**
 * The one live connection of the page. Connects on the first subscriber, subscribes each topic
 * once however many handlers it has, resubscribes after every reconnect, drops malformed or
 * oversized payloads, and never lets a handler's error escape into mqtt or React.
 */
export class LiveChannel {
  private client: MqttLike | null = null;
  private connecting: Promise<MqttLike | null> | null = null;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly guards = new Map<string, (v: unknown) => boolean>();
  private readonly readyCallbacks = new Map<string, Set<() => void>>();
  private generation = 0;

  private retry: ReturnType<typeof setTimeout> | null = null;
  private readonly endListeners = new Set<() => void>();

  constructor(
    private readonly url: () => string,
    /** A fresh broker login; it throws when the API cannot give one (then the channel retries). */
    private readonly login: () => Promise<LiveLogin>,
    private readonly connect: Connect = connectWithMqtt,
    /** Whether the login's failure says the session is over: then the channel stops asking and tells `onSessionEnd`'s listeners. */
    private readonly loginEndsSession: (error: unknown) => boolean = () => false,
  ) {}

  /** Calls `listener` when a broker login is refused because the session is over; returns the unsubscribe. */
  onSessionEnd(listener: () => void): () => void {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }

  /**
   * Subscribes to a user's topic; returns the unsubscribe. `onSubscribed` runs each time the
   * broker confirms the subscription (first, and after every reconnect): whatever was published
   * before that was not delivered live, so a caller reloads what it shows from the API then.
   */
  subscribe<K extends LiveKind>(
    kind: K,
    profileName: string,
    handler: (payload: LivePayloads[K]) => void,
    onSubscribed?: () => void,
  ): () => void {
    const topic = LIVE_TOPICS[kind](profileName);
    let set = this.handlers.get(topic);
    let ready = this.readyCallbacks.get(topic);
    if (!set || !ready) {
      set = new Set();
      ready = new Set();
      this.handlers.set(topic, set);
      this.readyCallbacks.set(topic, ready);
      this.guards.set(topic, LIVE_GUARDS[kind]);
      void this.ensureClient().then((client) => client && this.subscribeTopic(client, topic));
    }
    const h = handler as Handler;
    set.add(h);
    if (onSubscribed) ready.add(onSubscribed);
    return () => {
      if (onSubscribed) this.readyCallbacks.get(topic)?.delete(onSubscribed);
      const current = this.handlers.get(topic);
      if (!current?.delete(h) || current.size > 0) return;
      this.handlers.delete(topic);
      this.readyCallbacks.delete(topic);
      this.guards.delete(topic);
      this.client?.unsubscribe(topic);
    };
  }

  /** Ends the connection and forgets every subscription (logout). */
  close(): void {
    this.generation++;
    if (this.client) diagnostics.liveClients--;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.handlers.clear();
    this.readyCallbacks.clear();
    this.guards.clear();
    this.client?.end(true);
    this.client = null;
    this.connecting = null;
  }

  get topics(): string[] {
    return [...this.handlers.keys()];
  }

  private ensureClient(): Promise<MqttLike | null> {
    if (this.client) return Promise.resolve(this.client);
    if (!this.connecting) {
      const generation = this.generation;
      this.connecting = this.login()
        .then((login) => this.connect(this.url(), login))
        .then((client) => {
          // Logged out while mqtt.js was loading: do not keep a connection nobody wants.
          if (generation !== this.generation) {
            client.end(true);
            return null;
          }
          diagnostics.liveClients++;
          this.client = client;
          client.on('message', (topic, payload) => this.dispatch(topic, payload));
          // Each client connects once (clean session): subscribe every topic then.
          client.on('connect', () => {
            for (const topic of this.handlers.keys()) this.subscribeTopic(client, topic);
          });
          // Lost, refused (the login expired or was revoked) or never connected: start over with a
          // fresh login after a pause; if the session is over, the API refuses that and the
          // session store logs out, which closes the channel.
          const drop = () => {
            if (this.client !== client) return;
            // Forgotten before it is ended: an event it emits while ending finds it gone.
            this.client = null;
            this.connecting = null;
            diagnostics.liveClients--;
            client.end(true);
            this.reconnectLater(generation);
          };
          client.on('close', drop);
          client.on('error', (error) => {
            if (isLoginRefused(error)) drop();
          });
          return client;
        })
        .catch((error: unknown) => {
          this.connecting = null;
          if (generation !== this.generation) return null;
          if (this.loginEndsSession(error)) {
            // Asking again cannot help until someone logs in: the listeners end the session (which closes this channel).
            this.close();
            for (const listener of this.endListeners) listener();
            return null;
          }
          console.warn('[live] no broker login from the API; retrying', error);
          this.reconnectLater(generation);
          return null;
        });
    }
    return this.connecting.then((client) => (client && this.client === client ? client : null));
  }

  /** Connects again after a pause, with a fresh login, when someone still listens. */
  private reconnectLater(generation: number): void {
    if (this.retry || generation !== this.generation) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      // The new client's 'connect' subscribes every topic.
      if (generation === this.generation && this.handlers.size > 0) void this.ensureClient();
    }, LOGIN_RETRY_MS);
  }

  private subscribeTopic(client: MqttLike, topic: string): void {
    client.subscribe(topic, { qos: 1 }, (error) => {
      if (error) return;
      for (const callback of this.readyCallbacks.get(topic) ?? []) {
        try {
          callback();
        } catch (e) {
          console.error('[live] a subscriber failed', e);
        }
      }
    });
  }

  private dispatch(topic: string, payload: Uint8Array): void {
    const set = this.handlers.get(topic);
    const guard = this.guards.get(topic);
    if (!set || !guard || payload.byteLength > LIVE_MAX_PAYLOAD_BYTES) return;
    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder().decode(payload));
    } catch {
      return;
    }
    if (!guard(value)) return;
    for (const handler of set) {
      try {
        handler(value);
      } catch (error) {
        console.error('[live] a subscriber failed', error);
      }
    }
  }
}
