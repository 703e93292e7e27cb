import { timingSafeEqual } from 'node:crypto';
import type { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from './env.js';
import { HttpError, notFound } from './errors.js';
import { notifyUser, type Services } from '../services.js';

const notifyBody = z.object({
  profileName: z.string().min(1),
  content: z.string().trim().min(1).max(1000),
  link: z.string().max(500).nullable().optional(),
});

/** Operator endpoints behind the admin token (the `notify` command uses them); not for browsers. */
export function registerInternalRoutes(app: Hono<AppEnv>, services: Services): void {
  app.post('/internal/notify', async (c) => {
    const given = Buffer.from((c.req.header('authorization') ?? '').replace(/^Bearer /, ''));
    const expected = Buffer.from(services.config.adminToken);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw new HttpError(401, 'Admin token required');
    const parsed = notifyBody.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) throw new HttpError(400, 'Expected JSON { profileName, content, link? }');
    const user = services.repos.users.byProfileName(parsed.data.profileName);
    if (!user) throw notFound('Profile');
    return c.json(notifyUser(services, user.id, parsed.data.content, parsed.data.link ?? null), 201);
  });
}
