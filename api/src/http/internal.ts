import { timingSafeEqual } from 'node:crypto';
import type { Context, Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from './env.js';
import { HttpError, notFound } from './errors.js';
import { registerMailboxRoutes } from '../mail/routes.js';
import { registerBrokerAuthRoutes } from '../routes/brokerAuth.js';
import { notifyUser, type Services } from '../services.js';

const notifyBody = z.object({
  profileName: z.string().min(1),
  content: z.string().trim().min(1).max(1000),
  link: z.string().max(500).nullable().optional(),
});

const figuresQuery = z.object({
  since: z.iso.datetime().default(() => new Date(Date.now() - 24 * 3600_000).toISOString()),
  bucketMinutes: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(10),
});

const rollbackBody = z.object({
  remote: z.string().regex(/^[a-zA-Z][\w-]{0,63}$/),
  version: z.string().min(1).max(100),
  to: z.string().min(1).max(100).nullable(),
});

function requireAdmin(c: Context<AppEnv>, adminToken: string): void {
  const given = Buffer.from((c.req.header('authorization') ?? '').replace(/^Bearer /, ''));
  const expected = Buffer.from(adminToken);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new HttpError(401, 'Admin token required');
}

/**
 * Operator endpoints behind the admin token (the `notify` command, the release commands'
 * figures and rollbacks); not for browsers.
 */
export function registerInternalRoutes(app: Hono<AppEnv>, services: Services): void {
  registerBrokerAuthRoutes(app, services);
  // The dev mailbox (`npm start` without SMTP_URL): what the API sent, for the developer to open.
  registerMailboxRoutes(app, services.config.mail);

  app.post('/internal/notify', async (c) => {
    requireAdmin(c, services.config.adminToken);
    const parsed = notifyBody.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) throw new HttpError(400, 'Expected JSON { profileName, content, link? }');
    const user = await services.repos.users.byProfileName(parsed.data.profileName);
    if (!user) throw notFound('Profile');
    // The notification and its live message together, or neither.
    const notification = await services.repos.transaction((tx) =>
      notifyUser(tx, user.id, parsed.data.content, parsed.data.link ?? null),
    );
    return c.json(notification, 201);
  });

  // A rollback the release store now says (pnpm rollback, the canary watcher): announced to every
  // logged-in page at once, so one running the version taken away switches without waiting for
  // a navigation (issue 39, item 6).
  app.post('/internal/releases/rollback', async (c) => {
    requireAdmin(c, services.config.adminToken);
    const parsed = rollbackBody.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) throw new HttpError(400, 'Expected JSON { remote, version, to }');
    services.live.publish('rollbacks', '', parsed.data);
    return c.body(null, 202);
  });

  // Real-user figures per remote and version since a time (pnpm releases, the canary watcher),
  // with the same in time buckets for a chart.
  app.get('/internal/rum/figures', async (c) => {
    requireAdmin(c, services.config.adminToken);
    const parsed = figuresQuery.safeParse(c.req.query());
    if (!parsed.success) throw new HttpError(400, 'Expected ?since=<ISO time>&bucketMinutes=<1-1440>');
    const { since, bucketMinutes } = parsed.data;
    return c.json({
      since,
      figures: await services.repos.rum.figures(since),
      series: await services.repos.rum.series(since, bucketMinutes),
    });
  });
}
