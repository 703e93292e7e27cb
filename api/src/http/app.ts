import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { registerFileRoutes } from '../files/routes.js';
import { cookieOf, SESSION_COOKIE } from '../auth/sessions.js';
import { registerAccountRoutes } from '../routes/account.js';
import { registerAuthRoutes } from '../routes/auth.js';
import { registerBrowseRoutes } from '../routes/browse.js';
import { registerEventRoutes } from '../routes/events.js';
import { registerCartRoutes } from '../routes/cart.js';
import { registerChatRoutes } from '../routes/chat.js';
import { registerNotificationRoutes } from '../routes/notifications.js';
import { registerBookingRoutes } from '../routes/bookings.js';
import { registerOrderRoutes } from '../routes/orders/index.js';
import { registerRumRoutes } from '../routes/rum.js';
import { registerPurchaseRoutes } from '../routes/purchases.js';
import { registerPaymentRoutes } from '../payments/routes.js';
import { TEST_PAYMENT_PATH } from '../payments/testPayments.js';
import { registerOrderDownloads } from '../files/orderDownloads.js';
import { registerPurchaseDownloads } from '../files/purchaseDownloads.js';
import { isDatabaseUnavailable } from '../repositories/sql.js';
import type { Services } from '../services.js';
import type { AppEnv } from './env.js';
import { HttpError } from './errors.js';
import { IDEMPOTENCY_HEADER, idempotency, REPLAYED_HEADER } from './idempotency.js';
import { registerInternalRoutes } from './internal.js';
import { limitBody } from './limits.js';
import { createRouter, type Router } from './route.js';

/** Every call of the shared contract table, on `router` (tests record them with a router of their own). */
export function registerContractRoutes(router: Router, services: Services): void {
  registerAuthRoutes(router, services);
  registerCartRoutes(router, services);
  registerNotificationRoutes(router, services);
  registerChatRoutes(router, services);
  registerBrowseRoutes(router, services);
  registerAccountRoutes(router, services);
  registerEventRoutes(router, services);
  registerOrderRoutes(router, services);
  registerBookingRoutes(router, services);
  registerPurchaseRoutes(router, services);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const INSTANCE_HEADER = 'X-Api-Instance';

/** `internalRoutes: false`: the public app when the operator routes have their own port (API_INTERNAL_PORT). */
export function createApp(services: Services, { internalRoutes = true } = {}): Hono<AppEnv> {
  const { config, repos } = services;
  const allowed = new Set(config.allowedOrigins);
  const app = new Hono<AppEnv>();

  // Which instance answered, on every answer (errors too): behind a load balancer, tests and
  // operators see where each request went.
  app.use('*', async (c, next) => {
    c.header(INSTANCE_HEADER, config.instance);
    await next();
  });

  // Credentialed CORS for the configured origins only; others get no CORS headers at all.
  app.use(
    '*',
    cors({
      origin: (origin) => (allowed.has(origin) ? origin : null),
      credentials: true,
      allowMethods: ['GET', 'POST', 'PUT', 'OPTIONS'],
      allowHeaders: ['Content-Type', IDEMPOTENCY_HEADER],
      exposeHeaders: [INSTANCE_HEADER, REPLAYED_HEADER],
      maxAge: 600,
    }),
  );

  // A state-changing request from a page on a foreign origin is refused (cookie auth makes it CSRF).
  app.use('*', async (c, next) => {
    const origin = c.req.header('origin');
    // The test payment page is the API's own: its form posts back from the API's origin.
    const ownPage = c.req.path.startsWith(`${TEST_PAYMENT_PATH}/`) && origin === new URL(config.publicOrigin).origin;
    if (!SAFE_METHODS.has(c.req.method) && origin !== undefined && !allowed.has(origin) && !ownPage) {
      throw new HttpError(403, `Origin ${origin} is not allowed`);
    }
    await next();
  });

  app.use('*', async (c, next) => {
    c.set('user', await repos.sessions.userFor(cookieOf(c, SESSION_COOKIE)));
    await next();
  });

  const limit = limitBody(config.bodyMaxBytes, 'The request body');
  app.use('/v2/*', limit);
  app.use('/v2/*', idempotency(repos, config.idempotencyKey));
  app.use('/internal/*', limit);

  registerContractRoutes(createRouter(app), services);
  registerPaymentRoutes(app, services);
  registerPurchaseDownloads(app, services);
  registerOrderDownloads(app, services);
  registerFileRoutes(app, services);
  registerRumRoutes(app, services);
  if (internalRoutes) registerInternalRoutes(app, services);
  // Readiness: an instance whose database does not answer takes no traffic (nginx, compose).
  app.get('/health', async (c) => {
    try {
      await repos.ping();
      return c.json({ ok: true, instance: config.instance });
    } catch {
      return c.json({ ok: false, instance: config.instance, database: 'unreachable' }, 503);
    }
  });

  app.notFound((c) => c.json({ error: `No route for ${c.req.method} ${new URL(c.req.url).pathname}` }, 404));
  app.onError((err, c) => {
    if (err instanceof HttpError)
      return c.json(
        err.field ? { error: err.message, field: err.field } : { error: err.message },
        err.status,
        err.headers,
      );
    if (isDatabaseUnavailable(err))
      return c.json({ error: 'The service is unavailable right now: try again shortly' }, 503, { 'Retry-After': '5' });
    console.error('[api] unexpected error', err);
    return c.json({ error: 'Internal server error' }, 500);
  });
  return app;
}
