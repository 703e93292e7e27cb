import { describe, expect, it, vi } from 'vitest';
import { LIVE_MAX_PAYLOAD_BYTES } from '../contract/live.js';
import { LiveChannel, LOGIN_RETRY_MS, type LiveLogin, type MqttLike } from './channel.js';

/** A stand-in for mqtt.js at the network edge: records calls, lets the test emit events. */
class FakeClient implements MqttLike {
  subscribed: string[] = [];
  unsubscribed: string[] = [];
  ended = false;
  private listeners = new Map<string, ((...args: never[]) => void)[]>();
  on(event: string, cb: (...args: never[]) => void) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), cb]);
    return this;
  }
  /** The broker's acknowledgement of each subscription, for the test to give or refuse. */
  acks: ((error: Error | null) => void)[] = [];
  subscribe(topic: string, _opts: { qos: 0 | 1 }, cb?: (error: Error | null) => void) {
    this.subscribed.push(topic);
    if (cb) this.acks.push(cb);
    return this;
  }
  unsubscribe(topic: string) {
    this.unsubscribed.push(topic);
    return this;
  }
  end() {
    this.ended = true;
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    for (const cb of this.listeners.get(event) ?? []) (cb as (...a: unknown[]) => void)(...args);
  }
  message(topic: string, value: unknown) {
    this.emit('message', topic, new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)));
  }
}

const notification = { id: 1, status: 'NEW', content: 'hi', link: null, timestamp: '2026-01-01T00:00:00Z' };

function setup(logins: (() => Promise<LiveLogin>)[] = []) {
  const clients: FakeClient[] = [];
  let issued = 0;
  // The API's getLiveCredentials: each call a new login, unless the test scripts failures.
  const login = vi.fn(() => logins.shift()?.() ?? Promise.resolve({ username: `web-${++issued}`, password: 'secret' }));
  const connect = vi.fn(async (_url: string, _login: LiveLogin) => {
    const c = new FakeClient();
    clients.push(c);
    return c;
  });
  // A login refused as "not logged in" (the API's 401) ends the session.
  const endsSession = (error: unknown) => error instanceof Error && error.message === '401';
  return { channel: new LiveChannel(() => 'ws://x/mqtt', login, connect, endsSession), connect, login, clients };
}

/** Waits until client `n` has sent its subscriptions: the channel has logged in and connected. */
const connected = (clients: FakeClient[], n = 0) =>
  vi.waitFor(() => expect(clients[n]?.subscribed ?? []).not.toEqual([]));

describe('LiveChannel', () => {
  it('connects once, on the first subscriber, and subscribes each topic once', async () => {
    const { channel, connect, clients } = setup();
    expect(connect).not.toHaveBeenCalled();
    channel.subscribe('notifications', 'clara', () => {});
    channel.subscribe('notifications', 'clara', () => {});
    channel.subscribe('chatNotifications', 'clara', () => {});
    await connected(clients);
    expect(connect).toHaveBeenCalledTimes(1);
    expect(clients[0]?.subscribed).toEqual(['notifications/clara', 'chatNotifications/clara']);
  });

  it('unsubscribes a topic only when its last handler leaves', async () => {
    const { channel, clients } = setup();
    const a = channel.subscribe('notifications', 'clara', () => {});
    const b = channel.subscribe('notifications', 'clara', () => {});
    await connected(clients);
    a();
    expect(clients[0]?.unsubscribed).toEqual([]);
    b();
    expect(clients[0]?.unsubscribed).toEqual(['notifications/clara']);
  });

  it('delivers valid payloads and drops malformed, mistyped and oversized ones', async () => {
    const { channel, clients } = setup();
    const got: unknown[] = [];
    channel.subscribe('notifications', 'clara', (n) => got.push(n));
    await connected(clients);
    const client = clients[0] as FakeClient;
    client.message('notifications/clara', '{not json');
    client.message('notifications/clara', { ...notification, status: 'EXPLODED' });
    client.message('notifications/clara', { ...notification, content: 'x'.repeat(LIVE_MAX_PAYLOAD_BYTES) });
    client.message('notifications/mia', notification);
    client.message('notifications/clara', notification);
    expect(got).toEqual([notification]);
  });

  it('keeps delivering when one handler throws', async () => {
    const { channel, clients } = setup();
    const got: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    channel.subscribe('notifications', 'clara', () => {
      throw new Error('boom');
    });
    channel.subscribe('notifications', 'clara', (n) => got.push(n));
    await connected(clients);
    clients[0]?.message('notifications/clara', notification);
    expect(got).toHaveLength(1);
    spy.mockRestore();
  });

  it('resubscribes every topic after a reconnect', async () => {
    const { channel, clients } = setup();
    channel.subscribe('notifications', 'clara', () => {});
    channel.subscribe('chatNotifications', 'clara', () => {});
    await connected(clients);
    const client = clients[0] as FakeClient;
    client.subscribed = [];
    client.emit('connect');
    expect(client.subscribed).toEqual(['notifications/clara', 'chatNotifications/clara']);
  });

  it('tells a subscriber each time the broker confirms its topic, first and after a reconnect, so it can reload what it missed', async () => {
    const { channel, clients } = setup();
    const ready = vi.fn();
    const unsubscribe = channel.subscribe('notifications', 'clara', () => {}, ready);
    await connected(clients);
    const client = clients[0] as FakeClient;
    expect(ready).not.toHaveBeenCalled();
    client.acks.shift()?.(null);
    expect(ready).toHaveBeenCalledTimes(1);
    client.emit('connect');
    client.acks.shift()?.(new Error('refused'));
    expect(ready).toHaveBeenCalledTimes(1);
    client.emit('connect');
    client.acks.shift()?.(null);
    expect(ready).toHaveBeenCalledTimes(2);
    unsubscribe();
    client.emit('connect');
    expect(client.acks).toEqual([]);
    expect(ready).toHaveBeenCalledTimes(2);
  });

  it('ends the connection at close and starts a fresh one for the next login', async () => {
    const { channel, connect, clients } = setup();
    channel.subscribe('notifications', 'clara', () => {});
    await connected(clients);
    channel.close();
    expect(clients[0]?.ended).toBe(true);
    expect(channel.topics).toEqual([]);
    channel.subscribe('notifications', 'mia', () => {});
    await connected(clients, 1);
    expect(connect).toHaveBeenCalledTimes(2);
    expect(clients[1]?.subscribed).toEqual(['notifications/mia']);
  });

  it('connects with the broker login the API gives', async () => {
    const { channel, connect, clients } = setup();
    channel.subscribe('notifications', 'clara', () => {});
    await connected(clients);
    expect(connect).toHaveBeenCalledWith('ws://x/mqtt', { username: 'web-1', password: 'secret' });
  });

  it('asks for a login again after a pause when the API could not give one, then connects', async () => {
    vi.useFakeTimers();
    try {
      const { channel, connect, login } = setup([() => Promise.reject(new Error('503'))]);
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      channel.subscribe('notifications', 'clara', () => {});
      await vi.advanceTimersByTimeAsync(0);
      expect(connect).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(LOGIN_RETRY_MS);
      expect(login).toHaveBeenCalledTimes(2);
      expect(connect).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('starts over with a fresh login when the broker refuses it, and resubscribes on the new connection', async () => {
    vi.useFakeTimers();
    try {
      const { channel, connect, clients } = setup();
      channel.subscribe('notifications', 'clara', () => {});
      await vi.advanceTimersByTimeAsync(0);
      clients[0]!.emit('error', Object.assign(new Error('Connection refused: Not authorized'), { code: 5 }));
      expect(clients[0]!.ended).toBe(true);
      await vi.advanceTimersByTimeAsync(LOGIN_RETRY_MS);
      expect(connect).toHaveBeenLastCalledWith('ws://x/mqtt', { username: 'web-2', password: 'secret' });
      clients[1]!.emit('connect');
      expect(clients[1]!.subscribed).toContain('notifications/clara');
      // An error that is not a refusal ends nothing by itself: the close that follows a loss does.
      clients[1]!.emit('error', new Error('socket hang up'));
      expect(clients[1]!.ended).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('after a lost connection, connects again with a fresh login and a new client, one at a time', async () => {
    vi.useFakeTimers();
    try {
      const { channel, connect, clients } = setup();
      const ready = vi.fn();
      channel.subscribe('notifications', 'clara', () => {}, ready);
      await vi.advanceTimersByTimeAsync(0);
      clients[0]!.emit('connect');
      // The node went away; or RabbitMQ refused an expired login by closing without a CONNACK.
      clients[0]!.emit('close');
      expect(clients[0]!.ended).toBe(true);
      clients[0]!.emit('close');
      await vi.advanceTimersByTimeAsync(LOGIN_RETRY_MS);
      expect(connect).toHaveBeenCalledTimes(2);
      expect(connect).toHaveBeenLastCalledWith('ws://x/mqtt', { username: 'web-2', password: 'secret' });
      clients[1]!.emit('connect');
      clients[1]!.acks.shift()?.(null);
      expect(clients[1]!.subscribed).toContain('notifications/clara');
      // The page reloads what it missed while it was away.
      expect(ready).toHaveBeenCalledTimes(1);
      // The old client's late events change nothing.
      clients[0]!.emit('close');
      await vi.advanceTimersByTimeAsync(LOGIN_RETRY_MS);
      expect(connect).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not retry after logout', async () => {
    vi.useFakeTimers();
    try {
      const { channel, login } = setup([() => Promise.reject(new Error('503'))]);
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      channel.subscribe('notifications', 'clara', () => {});
      await vi.advanceTimersByTimeAsync(0);
      channel.close();
      await vi.advanceTimersByTimeAsync(LOGIN_RETRY_MS * 2);
      expect(login).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops asking for a login once the API says the session is over, and tells its listeners once', async () => {
    vi.useFakeTimers();
    try {
      const { channel, connect, login } = setup([
        () => Promise.reject(new Error('401')),
        () => Promise.reject(new Error('401')),
      ]);
      const ended = vi.fn();
      channel.onSessionEnd(ended);
      channel.subscribe('notifications', 'clara', () => {});
      await vi.advanceTimersByTimeAsync(LOGIN_RETRY_MS * 10);
      expect(login).toHaveBeenCalledTimes(1);
      expect(connect).not.toHaveBeenCalled();
      expect(ended).toHaveBeenCalledTimes(1);
      expect(channel.topics).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks again after a broker refusal, and stops when the fresh login is refused as the session being over', async () => {
    vi.useFakeTimers();
    try {
      const { channel, login, clients } = setup();
      const ended = vi.fn();
      channel.onSessionEnd(ended);
      channel.subscribe('notifications', 'clara', () => {});
      await vi.advanceTimersByTimeAsync(0);
      login.mockImplementation(() => Promise.reject(new Error('401')));
      clients[0]!.emit('error', { code: 5 });
      await vi.advanceTimersByTimeAsync(LOGIN_RETRY_MS * 10);
      expect(login).toHaveBeenCalledTimes(2);
      expect(ended).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
