import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** A failure with a reason the caller can show; becomes `{ error, field? }` with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    message: string,
    readonly field?: string,
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notLoggedIn = () => new HttpError(401, 'Not logged in');
export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const forbidden = (why: string) => new HttpError(403, why);
/** A change to an order that is deleted, declined or cancelled (domain/orders.ts OPEN). */
export const orderClosed = () => new HttpError(409, 'This order is closed');
