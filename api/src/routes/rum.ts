import type { Hono } from 'hono';
import { BEACON_MAX_BYTES, BEACON_PATH } from '@marketplace/shared/platform';
import { clientAddress } from '../http/client.js';
import type { AppEnv } from '../http/env.js';
import { HttpError } from '../http/errors.js';
import { limitBody } from '../http/limits.js';
import { parseBeacon } from '../rum/beacon.js';
import { RateWindow } from '../rum/rateWindow.js';
import type { Services } from '../services.js';

/**
 * Real-user beacons from the shell (shared/src/platform/beacon.ts). A browser sends them with
 * navigator.sendBeacon, as text/plain (a type that needs no CORS preflight), so the body is read
 * as text whatever its type. Oversized: 413; malformed: 400 with the reason; a client sending
 * more than its share per minute: 429; collection switched off (RUM_COLLECT=off): 404.
 */
export function registerRumRoutes(app: Hono<AppEnv>, { config, repos }: Services): void {
  const perClient = new RateWindow(repos.rateWindows, config.rumBeaconsPerMinute, 60_000);
  app.post(BEACON_PATH, limitBody(BEACON_MAX_BYTES, 'A beacon'), async (c) => {
    if (!config.rumCollect) throw new HttpError(404, 'Real-user collection is switched off');
    const wait = await perClient.hit(`rum:${clientAddress(c, config)}`);
    if (wait > 0) throw new HttpError(429, 'Too many beacons', undefined, { 'Retry-After': String(wait) });
    const result = parseBeacon(await c.req.text());
    if ('problem' in result) throw new HttpError(400, result.problem);
    await repos.rum.record(result.beacon);
    return c.body(null, 204);
  });
}
