import type { Hono } from 'hono';
import { BEACON_MAX_BYTES, BEACON_PATH } from '@marketplace/shared/platform';
import { clientAddress, clientGroup } from '../http/client.js';
import type { AppEnv } from '../http/env.js';
import { HttpError } from '../http/errors.js';
import { limitBody } from '../http/limits.js';
import { checkToken, parseBeacon } from '../rum/beacon.js';
import { RateWindow } from '../rum/rateWindow.js';
import type { Services } from '../services.js';

/**
 * Real-user beacons from the shell (shared/src/platform/beacon.ts). A browser sends them with
 * navigator.sendBeacon, as text/plain (a type that needs no CORS preflight), so the body is read
 * as text whatever its type. Oversized: 413; malformed: 400 with the reason; a client sending
 * more than its share per minute: 429; collection switched off (RUM_COLLECT=off): 404.
 *
 * Only evidence a page server vouched for is counted (issue 39, item 4): a beacon without its
 * page load's valid token, for another load, or naming a version its token does not sign is
 * refused (403 with the reason); one for a load already closed (its final or last beacon came)
 * is refused (409); and a client past RUM_LOADS_PER_HOUR new page loads has its further loads
 * refused (429), which caps what one address weighs in a canary's figures.
 *
 * A canary is judged per browser (the id its token signs, each browser by its first load of a
 * version), so what a client can buy is browsers: one client brings at most
 * RUM_BROWSERS_PER_VERSION_PER_DAY browsers to a remote version's figures in a day (a beacon
 * that would bring one more is refused, 429), however many browser ids it collected before; and
 * one browser past RUM_LOADS_PER_BROWSER_PER_HOUR new page loads has its further loads refused.
 */
export function registerRumRoutes(app: Hono<AppEnv>, { config, repos }: Services): void {
  const perClient = new RateWindow(repos.rateWindows, config.rumBeaconsPerMinute, 60_000);
  const loadsPerClient = new RateWindow(repos.rateWindows, config.rumLoadsPerHour, 3_600_000);
  const browsersPerVersion = new RateWindow(repos.rateWindows, config.rumBrowsersPerVersionPerDay, 86_400_000);
  const loadsPerBrowser = new RateWindow(repos.rateWindows, config.rumLoadsPerBrowserPerHour, 3_600_000);
  /** Refused with 429 when `window` has no room left for `key`. */
  const within = async (window: RateWindow, key: string, refusal: string) => {
    const wait = await window.hit(key);
    if (wait > 0) throw new HttpError(429, refusal, undefined, { 'Retry-After': String(wait) });
  };
  app.post(BEACON_PATH, limitBody(BEACON_MAX_BYTES, 'A beacon'), async (c) => {
    if (!config.rumCollect) throw new HttpError(404, 'Real-user collection is switched off');
    // A client by its group: an IPv6 subscriber has a whole /64 of addresses to pick from.
    const client = clientGroup(clientAddress(c, config));
    const wait = await perClient.hit(`rum:${client}`);
    if (wait > 0) throw new HttpError(429, 'Too many beacons', undefined, { 'Retry-After': String(wait) });
    const result = parseBeacon(await c.req.text());
    if ('problem' in result) throw new HttpError(400, result.problem);
    const { beacon } = result;
    const checked = checkToken(beacon, config.rumTokenKey);
    if ('problem' in checked) throw new HttpError(403, checked.problem);
    const browser = checked.claims.browser ?? null;
    // Counted against the client's and the browser's loads once, at the load's first beacon; its
    // later ones merge.
    if (!(await repos.rum.known(beacon.load))) {
      await within(loadsPerClient, `rum-loads:${client}`, 'Too many page loads from this client');
      if (browser !== null)
        await within(loadsPerBrowser, `rum-browser-loads:${browser}`, 'Too many page loads from this browser');
    }
    // Each browser a beacon would add to a version's figures (a later beacon may name a remote the
    // page loaded since), against the client's share of that version.
    for (const unit of await repos.rum.newUnits(beacon.load, browser, beacon.versions))
      await within(browsersPerVersion, `rum-units:${client}:${unit}`, `Too many browsers from this client for ${unit}`);
    if ((await repos.rum.record(beacon, browser)) === 'closed') throw new HttpError(409, 'This page load is closed');
    return c.body(null, 204);
  });
}
