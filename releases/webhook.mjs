// The team's webhook per remote, kept in the release store, and the pager that calls it: when the
// watcher cannot read a canary's figures three evaluations in a row (`blind`), and on every
// rollback (`rolled-back`) and promotion (`promoted`). One POST per event, never retried (a
// receiver that is down is not sent a storm on its return), in the background with a timeout, so
// that a webhook that fails or hangs never stops or slows the watcher; each call is recorded in
// the history, `sent` or `failed` with the reason.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';
import { appendHistory } from './history.mjs';
import { withStoreLock } from './lock.mjs';

/**
 * A dotted file beside the heartbeat, not in the discovery document or the history: a webhook's
 * address often carries its secret (a chat service's hook), and those two are meant to be read.
 */
const WEBHOOKS_FILE = '.webhooks.json';

/** How long a webhook may take to answer before its call is recorded as failed. */
export const WEBHOOK_TIMEOUT_MS = 5000;

/**
 * @typedef {'blind' | 'rolled-back' | 'promoted'} WebhookKind
 * What a webhook is sent (its JSON body): `versions.from` is what was live (for `rolled-back`, the
 * version taken away), `versions.to` what serves now (for `blind`, the version being judged).
 * @typedef {{ remote: string, kind: WebhookKind, versions: { from: string | null, to: string | null }, reason: string, time: string }} WebhookEvent
 */

/** Each remote's webhook address. @param {string} store @returns {Record<string, string>} */
export function readWebhooks(store) {
  try {
    return JSON.parse(readFileSync(join(store, WEBHOOKS_FILE), 'utf8'));
  } catch {
    return {};
  }
}

/** What the listing and the history show of an address: its origin (the path may be the secret). @param {string} url */
export function webhookOrigin(url) {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}

/**
 * Sets `remote`'s webhook (`pnpm release <remote> --webhook <url>`), or removes it (`url` null).
 * @param {{ store: string, remote: string, url: string | null }} options
 */
export function setWebhook({ store, remote, url }) {
  if (url !== null) {
    let parsed;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`--webhook takes an http or https URL, or off, not '${url}'`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new Error(`--webhook takes an http or https URL, not '${url}'`);
  }
  return withStoreLock(store, () => {
    const { [remote]: _old, ...others } = readWebhooks(store);
    const next = url === null ? others : { ...others, [remote]: url };
    mkdirSync(store, { recursive: true });
    const tmp = join(store, `${WEBHOOKS_FILE}.${randomBytes(6).toString('hex')}`);
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, join(store, WEBHOOKS_FILE));
  });
}

/**
 * @typedef {{ page: (event: Omit<WebhookEvent, 'time'>) => void, settled: () => Promise<void> }} Pager
 * `page` starts the call and returns at once; `settled` waits for the calls under way (a command
 * about to exit), each bounded by the timeout.
 */

/**
 * The pager of a watcher or command on `store`: the address is read from the store at each call
 * (set or changed while a service runs, it is used from the next event on).
 * @param {{ store: string, timeoutMs?: number, log?: (line: string) => void }} options
 * @returns {Pager}
 */
export function createPager({ store, timeoutMs = WEBHOOK_TIMEOUT_MS, log = console.log }) {
  /** @type {Set<Promise<void>>} */
  const pending = new Set();
  /** @param {WebhookEvent} event @param {string} url */
  const call = async (event, url) => {
    let failure = null;
    let answer = '';
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
        signal: AbortSignal.timeout(timeoutMs),
      });
      // The body is not needed; read so the connection is freed (and within the same timeout).
      await response.arrayBuffer();
      answer = `${webhookOrigin(url)} answered ${response.status}`;
      if (!response.ok) failure = answer;
    } catch (error) {
      failure =
        error instanceof Error && error.name === 'TimeoutError'
          ? `${webhookOrigin(url)} did not answer within ${timeoutMs} ms`
          : `${webhookOrigin(url)}: ${messageOf(error)}`;
    }
    if (failure) log(`${event.remote}: the webhook was not told of ${event.kind} (${failure})`);
    await withStoreLock(store, () =>
      appendHistory(store, {
        time: new Date().toISOString(),
        remote: event.remote,
        action: 'webhook',
        from: event.versions.from,
        to: event.versions.to,
        result: failure ? 'failed' : 'sent',
        kind: event.kind,
        reason: failure ?? answer,
      }),
    );
  };
  return {
    page(event) {
      const url = readWebhooks(store)[event.remote];
      if (!url) return;
      const delivery = call({ ...event, time: new Date().toISOString() }, url)
        .catch((error) => log(`${event.remote}: the webhook's call was not recorded (${messageOf(error)})`))
        .finally(() => pending.delete(delivery));
      pending.add(delivery);
    },
    async settled() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}
