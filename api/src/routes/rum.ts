import type { Hono } from 'hono';
import { BEACON_MAX_BYTES, BEACON_PATH } from '@marketplace/shared/platform';
import { clientAddress, clientGroup } from '../http/client.js';
import type { AppEnv } from '../http/env.js';
import { HttpError } from '../http/errors.js';
import { limitBody } from '../http/limits.js';
import { parseBeacon, tokenProblem } from '../rum/beacon.js';
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
 */
export function registerRumRoutes(app: Hono<AppEnv>, { config, repos }: Services): void {
  const perClient = new RateWindow(repos.rateWindows, config.rumBeaconsPerMinute, 60_000);
  const loadsPerClient = new RateWindow(repos.rateWindows, config.rumLoadsPerHour, 3_600_000);
  app.post(BEACON_PATH, limitBody(BEACON_MAX_BYTES, 'A beacon'), async (c) => {
    if (!config.rumCollect) throw new HttpError(404, 'Real-user collection is switched off');
    // A client by its group: an IPv6 subscriber has a whole /64 of addresses to pick from.
    const client = clientGroup(clientAddress(c, config));
    const wait = await perClient.hit(`rum:${client}`);
    if (wait > 0) throw new HttpError(429, 'Too many beacons', undefined, { 'Retry-After': String(wait) });
    const result = parseBeacon(await c.req.text());
    if ('problem' in result) throw new HttpError(400, result.problem);
    const { beacon } = result;
    const problem = tokenProblem(beacon, config.rumTokenKey);
    if (problem) throw new HttpError(403, problem);
    // Counted against the client's loads once, at the load's first beacon; its later ones merge.
    if (!(await repos.rum.known(beacon.load))) {
      const later = await loadsPerClient.hit(`rum-loads:${client}`);
      if (later > 0)
        throw new HttpError(429, 'Too many page loads from this client', undefined, { 'Retry-After': String(later) });
    }
    if ((await repos.rum.record(beacon)) === 'closed') throw new HttpError(409, 'This page load is closed');
    return c.body(null, 204);
  });
}
