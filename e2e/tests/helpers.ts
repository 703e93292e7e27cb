import { expect, type Page } from '@playwright/test';
import { API_CALLS, type CallSpec } from '@marketplace/shared/contract';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ADMIN_TOKEN, API_INTERNAL, DATA_DIR, DEMO_PASSWORD, ROOT } from '../env.js';
import { followLiveSockets } from './broker.js';

/** Logs in through the account remote's form, as a person would (on `shell`, the suite's by default). */
export async function logIn(page: Page, profileName: string, password = DEMO_PASSWORD, shell = ''): Promise<void> {
  await page.goto(`${shell}/user/login`);
  await page.getByLabel('Email or profile name').fill(profileName);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
}

/**
 * Creates a notification for a user through the API's operator endpoint (at `api`: where the
 * operator routes are served); it is published live.
 */
export async function notify(
  profileName: string,
  content: string,
  link: string | null = null,
  api = API_INTERNAL,
): Promise<{ id: number }> {
  const res = await fetch(`${api}/internal/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ profileName, content, link }),
  });
  if (res.status !== 201) throw new Error(`notify: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number };
}

/**
 * A logged-in user's page across a broker restart: dave logs in on `shell` (one live connection,
 * one NEW notification), `restart` takes the broker down and up, the page connects again by
 * itself and resubscribes, and a notification `api` publishes after that shows in the badge and
 * on top of the list, without a reload. Answers the page's websocket URLs and the bell.
 */
export async function survivesBrokerRestart(
  page: Page,
  { shell, api, restart }: { shell: string; api: string; restart: () => Promise<void> },
) {
  const sockets = followLiveSockets(page);
  await logIn(page, 'dave', DEMO_PASSWORD, shell);
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'no reload'));
  const bell = page.getByRole('button', { name: /^Notifications, \d+ new$/ });
  await expect(bell).toHaveAccessibleName('Notifications, 1 new');
  await expect.poll(() => sockets.length).toBe(1);

  await restart();
  // The channel connects again on its own (every 2 s) and subscribes again: the broker confirms it.
  await expect.poll(() => sockets[1]?.subscribed ?? [], { timeout: 15_000 }).toContain('notifications/dave');
  expect(sockets).toHaveLength(2);
  await notify('dave', 'Published after the restart', null, api);
  await expect(bell).toHaveAccessibleName('Notifications, 2 new');
  await bell.click();
  await expect(page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first()).toContainText(
    'Published after the restart',
  );
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no reload');
  return { bell };
}

/** The page's diagnostics counters (shared/src/diagnostics.ts). */
export function diagnostics(page: Page): Promise<{ sessionStores: number; liveClients: number }> {
  return page.evaluate(
    () =>
      (globalThis as unknown as { __MARKETPLACE_DIAGNOSTICS__: { sessionStores: number; liveClients: number } })
        .__MARKETPLACE_DIAGNOSTICS__,
  );
}

/**
 * The paths of the contract's lookups (CallSpec.lookup), whose 404 means "not found" and is
 * shown as such: Chromium's console line for that answer is expected there and nowhere else.
 */
const LOOKUP_PATHS = Object.values(API_CALLS)
  .filter((spec: CallSpec) => spec.lookup)
  .map((spec) => new RegExp(`${spec.path.replace(/:\w+/g, '[^/?]+')}(\\?|$)`));

/** Chromium's line for a lookup that found nothing: expected, not a failure. */
export const isExpectedNotFound = (text: string, url: string) =>
  /status of 404/.test(text) && LOOKUP_PATHS.some((path) => path.test(new URL(url, 'http://x').pathname));

/** Fails the test on any uncaught page error or console error, except the ones a test expects. */
export function watchConsole(page: Page, allowed: RegExp[] = []): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error' || allowed.some((re) => re.test(m.text()))) return;
    if (isExpectedNotFound(m.text(), m.location().url)) return;
    problems.push(`console: ${m.text()}`);
  });
  return problems;
}

interface Sqlite {
  prepare(sql: string): { run(...args: unknown[]): unknown };
  close(): void;
}

/**
 * Writes straight into the suite's API database, for data the API has no call to write (names
 * of events and items, a picture path): better-sqlite3 from the API's own dependencies.
 */
export function withDatabase(write: (db: Sqlite) => void): void {
  const Database = createRequire(join(ROOT, 'api', 'package.json'))('better-sqlite3') as new (path: string) => Sqlite;
  const db = new Database(join(DATA_DIR, 'db.sqlite'));
  try {
    write(db);
  } finally {
    db.close();
  }
}

/** The JSON text of the state a page's server wrote into its HTML (shared/src/app/serverState.ts), if any. */
export const serverStateText = (html: string): string | undefined =>
  /<script type="application\/json" id="platform-server-state">(.*?)<\/script>/s.exec(html)?.[1];
