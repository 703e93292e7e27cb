import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { ApiConfig } from '../config.js';

/** Who sent the request, for per-client limits: the socket's address, or the proxy's last X-Forwarded-For entry. */
export function clientAddress(c: Context, config: Pick<ApiConfig, 'trustProxy'>): string {
  if (config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return getConnInfo(c).remote.address ?? 'unknown';
}
