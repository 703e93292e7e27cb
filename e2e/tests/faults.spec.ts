import { expect, type Locator, type Page } from '@playwright/test';
import type { Server } from 'node:http';
import { API, PORTS, runtimeEnv } from '../env.js';
import { startFaultyRemote, type Fault } from './fault-proxies.js';
import { startApp, stop, type AppDir } from './servers.js';
import { test } from './fixtures.js';

type RemoteKey = 'header' | 'media' | 'eventOrder' | 'account';

/** Opens the page that uses the remote; the event order page needs a logged-in client. */
async function openPage(page: Page, shell: string, remote: RemoteKey): Promise<void> {
  if (remote === 'eventOrder') {
    expect(
      (await page.request.post(`${API}/v2/login`, { form: { login: 'clara', password: 'demo-pass-2026' } })).status(),
    ).toBe(200);
    const { eventOrders } = (await (await page.request.get(`${API}/v2/user/eventOrders`)).json()) as {
      eventOrders: { orderId: string }[];
    };
    await page.context().addCookies([{ name: 'loggedIn', value: 'yes', url: shell }]);
    await page.goto(`${shell}/eventorder/${eventOrders[0]?.orderId}`);
    return;
  }
  await page.goto(`${shell}${remote === 'account' ? '/user/login' : '/events'}`);
}

/** The header's search still works: it reads the API and lists results. */
async function searchWorks(page: Page) {
  await page.getByRole('combobox', { name: 'Search' }).fill('jazz');
  await expect(page.getByRole('option', { name: 'Summer Jazz Night' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Search' }).press('Escape');
}

const REMOTES: Record<
  RemoteKey,
  {
    app: AppDir;
    ports: [shell: number, remote: number];
    broken: { chunkPrefix: string; find: string; replace: string };
    othersWork: (page: Page) => Promise<void>;
    works: (page: Page) => Locator;
  }
> = {
  header: {
    app: 'mf-header',
    ports: [13500, 13501],
    broken: {
      chunkPrefix: 'src_header_HeaderBar_tsx',
      find: 'children:"EventMedia"',
      replace: 'children:(()=>{throw new Error("broken build")})()',
    },
    // The page's own remote and the footer's account modal still work.
    othersWork: async (page) => {
      await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();
      await page.getByRole('link', { name: 'Question?' }).click();
      await expect(page.getByRole('heading', { name: /Frequently asked questions|FAQ/i })).toBeVisible();
    },
    works: (page) => page.getByRole('link', { name: 'EventMedia' }),
  },
  media: {
    app: 'mf-media',
    ports: [13600, 13602],
    broken: {
      chunkPrefix: '__federation_expose_EventsPage',
      find: 'children:"Events"',
      replace: 'children:(()=>{throw new Error("broken build")})()',
    },
    othersWork: searchWorks,
    works: (page) => page.getByRole('heading', { name: 'Events', level: 1 }),
  },
  eventOrder: {
    app: 'mf-event-order',
    ports: [13700, 13703],
    broken: {
      chunkPrefix: 'src_order_OrderPage_tsx',
      find: 'children:"Order info"',
      replace: 'children:(()=>{throw new Error("broken build")})()',
    },
    othersWork: async (page) => {
      await searchWorks(page);
      await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
    },
    works: (page) => page.getByText('Order info'),
  },
  account: {
    app: 'mf-account',
    ports: [13800, 13804],
    broken: {
      chunkPrefix: '__federation_expose_LoginPage',
      find: 'children:"Log in"',
      replace: 'children:(()=>{throw new Error("broken build")})()',
    },
    // The login page's header is the compact one: its logo leads to the media remote's page.
    othersWork: async (page) => {
      await page.getByRole('link', { name: 'EventMedia' }).click();
      await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();
      await page.goBack();
    },
    works: (page) => page.getByRole('heading', { name: 'Log in' }),
  },
};

const FAULTS: Fault[] = ['down', 'manifest 500', 'entry delayed past the load timeout', 'throwing on render'];

const servers: { close: () => Promise<void> }[] = [];
test.afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

for (const [remote, c] of Object.entries(REMOTES) as [RemoteKey, (typeof REMOTES)[RemoteKey]][]) {
  for (const fault of FAULTS) {
    test(`fault matrix: ${remote} ${fault}: its slot falls back, the other remotes work, and it recovers without a reload`, async ({
      page,
    }) => {
      test.setTimeout(60_000);
      const uncaught: string[] = [];
      page.on('pageerror', (e) => uncaught.push(e.message));
      const [shellPort, remotePort] = c.ports;
      const shell = `http://localhost:${shellPort}`;
      const faulty = await startFaultyRemote(c.app, remotePort, fault, c.broken);
      servers.push(faulty);
      const shellServer: Server = await startApp('shell', shellPort, runtimeEnv({ ...PORTS, [remote]: remotePort }));
      servers.push({ close: () => stop(shellServer) });

      await openPage(page, shell, remote);
      await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'no reload'));
      const fallback = page.getByTestId(`slot-fallback-${remote}`);
      await expect(fallback).toBeVisible({ timeout: 15_000 });
      await c.othersWork(page);

      // Healed: the remote answers again, or (after a module threw) serves a fixed build, which
      // the slot fetches afresh rather than reusing the module that threw.
      await faulty.heal();
      // Retry until the slot holds the remote (a failed slot also retries by itself on
      // navigation, so it may be loading or already back when the remote heals).
      await expect(async () => {
        if (await fallback.isVisible()) await fallback.getByRole('button', { name: 'Retry' }).click();
        await expect(c.works(page)).toBeVisible({ timeout: 4_000 });
      }).toPass({ timeout: 30_000 });
      await expect(fallback).toHaveCount(0);
      expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe('no reload');
      expect(uncaught).toEqual([]);
    });
  }
}
