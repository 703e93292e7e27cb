import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/** Past this, an oversized body is cut off rather than read to its end. */
const DRAIN_CAP_BYTES = 64 * 1024 * 1024;

/**
 * Reads and discards the rest of a refused body before answering. Answering early and
 * closing the socket while the client is still sending makes browsers and fetch report a
 * network error instead of the 413 and its reason.
 */
async function drain(c: Context): Promise<void> {
  const body = c.req.raw.body;
  if (!body || body.locked) return;
  const reader = body.getReader();
  let seen = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.byteLength;
      if (seen > DRAIN_CAP_BYTES) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to drain.
  }
}

/** hono's bodyLimit, answering 413 with a JSON reason once the client has finished sending. */
export function limitBody(maxSize: number, what: string): MiddlewareHandler {
  return bodyLimit({
    maxSize,
    onError: async (c) => {
      await drain(c);
      return c.json({ error: `${what} is larger than ${maxSize} bytes` }, 413);
    },
  });
}
