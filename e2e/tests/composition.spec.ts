import { expect } from '@playwright/test';
import { compositionBlocks } from 'page-server/page-composition';
import { PORTS } from '../env.js';
import { diagnostics, logIn, watchConsole } from './helpers.js';
import { test } from './fixtures.js';

const fromPort = (port: number) => (url: string) => url.startsWith(`http://localhost:${port}/`);

test('shell + header + media: the home page loads only the remotes it shows, and no mqtt', async ({ page }) => {
  const problems = watchConsole(page);
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Posts' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Summer Jazz Night/ })).toBeVisible();

  expect(urls.some(fromPort(PORTS.header))).toBe(true);
  expect(urls.some(fromPort(PORTS.media))).toBe(true);
  expect(urls.filter(fromPort(PORTS.eventOrder))).toEqual([]);
  expect(urls.filter(fromPort(PORTS.account))).toEqual([]);
  expect(urls.filter((u) => /mqtt/.test(u))).toEqual([]);
  expect(problems).toEqual([]);
});

test('header + media + account in one page: exactly one react-dom, one session store; logged in, one websocket', async ({
  page,
}) => {
  const problems = watchConsole(page);
  const scripts: string[] = [];
  const sockets: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  page.on('websocket', (ws) => sockets.push(ws.url()));

  await page.goto('/events');
  await expect(page.getByRole('link', { name: /City Marathon/ })).toBeVisible();
  // The header (its remote) navigates to the account remote's page.
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  for (const port of [PORTS.header, PORTS.media, PORTS.account])
    expect(scripts.some(fromPort(port)), `remote on ${port}`).toBe(true);

  expect(scripts.filter((u) => /react-dom_client_js/.test(u))).toHaveLength(1);
  expect(scripts.filter((u) => /node_modules_react-dom_index_js/.test(u)).length).toBeLessThanOrEqual(1);
  expect(scripts.filter((u) => /node_modules_react_index_js/.test(u))).toHaveLength(1);
  expect((await diagnostics(page)).sessionStores).toBe(1);

  await page.getByLabel('Email or profile name').fill('ben');
  await page.getByLabel('Password').fill('demo-pass-2026');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('button', { name: 'Profile menu' })).toBeVisible();
  await expect.poll(() => sockets.length).toBe(1);
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('heading', { name: 'Posts' })).toBeVisible();
  await page.getByRole('link', { name: 'Events', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Events' })).toBeVisible();

  expect(sockets).toEqual([`ws://localhost:${PORTS.api}/mqtt`]);
  expect(await diagnostics(page)).toEqual({ sessionStores: 1, liveClients: 1 });
  expect(scripts.filter((u) => /mqtt_esm_js/.test(u))).toHaveLength(1);
  expect(problems).toEqual([]);
});

test('header + media: adding to the cart on an event page updates the header badge at once', async ({ page }) => {
  await logIn(page, 'tom');
  await page.goto('/event/tech-meetup-november');
  const cart = page.getByRole('link', { name: /^Cart, \d+ items$/ });
  const before = Number((await cart.getAttribute('aria-label'))?.match(/\d+/)?.[0]);
  await page.getByRole('button', { name: 'Add to cart' }).first().click();
  await expect(page.getByText('Added to cart')).toBeVisible();
  await expect(cart).toHaveAttribute('aria-label', `Cart, ${before + 1} items`);
});

test("the page arrives composed: its runtime config and the remotes' manifests are in it, so no script waits on a config or manifest request", async ({
  page,
}) => {
  const problems = watchConsole(page);
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  const response = await page.goto('/events');
  await expect(page.getByRole('link', { name: /City Marathon/ })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Posts' })).toBeVisible();

  expect(urls.filter((u) => /runtime-config\.json|mf-manifest\.json|discovery\.json/.test(u))).toEqual([]);
  // Each preload hint is the load itself: no script is fetched twice.
  const scripts = urls.filter((u) => u.endsWith('.js'));
  expect(scripts.filter((u, i) => scripts.indexOf(u) !== i)).toEqual([]);

  const html = (await response?.text()) ?? '';
  expect(html).not.toContain('<!--#');
  const [block = ''] = compositionBlocks(html);
  const composed = JSON.parse(block) as {
    config: { remotes: Record<string, string> };
    manifests: Record<string, { name: string }>;
  };
  expect(composed.config.remotes.header).toBe(`http://localhost:${PORTS.header}/mf-manifest.json`);
  expect(
    Object.fromEntries(Object.entries(composed.manifests).map(([remote, manifest]) => [remote, manifest.name])),
  ).toEqual({ header: 'header', media: 'media', eventOrder: 'eventOrder', account: 'account' });
  expect(problems).toEqual([]);
});
