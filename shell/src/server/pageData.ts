import type { Query, QueryClient } from '@tanstack/react-query';
import {
  apiCallWith,
  isNotFoundQuery,
  keepNotFoundAnswers,
  sendPageCall,
  type PageCall,
  type ServerSession,
  statusOf,
} from '@marketplace/shared';
import { describeError } from '../telemetry/attribution.js';

/** No call of a render waits longer than this, whatever deadline its page was given. */
const CALL_TIMEOUT_MS = 5000;

/** How a render's calls reach the API: where from, with whose session, until when. */
export interface DataContext {
  /** The page's data deadline, aborting whatever has not answered. */
  deadline: AbortSignal;
  deadlineMs: number;
  apiOrigin?: string;
  /** A logged-in visitor's session cookie alone (`session=…`), none for a visitor. */
  cookie?: string;
}

/** Sends one call within the page's deadline and its own timeout; null when it gave no answer in time, or failed. */
function withinDeadline(context: DataContext) {
  const signal = AbortSignal.any([context.deadline, AbortSignal.timeout(CALL_TIMEOUT_MS)]);
  return { signal, apiOrigin: context.apiOrigin, cookie: context.cookie };
}

/** Why a call gave no answer for the page, or null when its failure is an answer (not found, not yours). */
function missed(name: string, error: unknown, context: DataContext): string | null {
  if ([401, 403, 404].includes(statusOf(error))) return null;
  const why = context.deadline.aborted ? `no answer within ${context.deadlineMs} ms` : describeError(error);
  return `${name}: ${why}; left to the browser`;
}

/**
 * The page's loader, run: every call at once, each with the page's data deadline as its signal
 * (and the call's own timeout), into `client`. A call that has not answered by the deadline is
 * aborted; it and any other failure but "does not exist" leave the cache, so the page renders
 * them loading and the browser asks (the API may be back by then).
 */
export async function loadPageData(client: QueryClient, calls: readonly PageCall[], context: DataContext) {
  const notes: string[] = [];
  await Promise.all(
    calls.map(async (call) => {
      try {
        const options = withinDeadline(context);
        await client.fetchQuery({ queryKey: call.queryKey, queryFn: () => sendPageCall(call, options) });
      } catch (error) {
        const note = missed(call.name, error, context);
        if (note) notes.push(note);
      }
    }),
  );
  keepNotFoundAnswers(client);
  const cache = client.getQueryCache();
  for (const query of cache.findAll({ predicate: (q) => q.state.status !== 'success' && !isNotFoundQuery(q) }))
    cache.remove(query);
  return notes;
}

/**
 * A logged-in visitor's session as their header and cart show it (the session store's load(),
 * on the server): null when it is not one (ended, unknown) or not there by the deadline, and the
 * browser loads it as it would without a server.
 */
export async function loadSession(context: DataContext, notes: string[]): Promise<ServerSession | null> {
  try {
    const [user, { cart }] = await Promise.all([
      apiCallWith(withinDeadline(context), 'getUserInfo'),
      apiCallWith(withinDeadline(context), 'getCart'),
    ]);
    return user.username ? { user, cart } : null;
  } catch (error) {
    const note = missed('the session', error, context);
    if (note) notes.push(note);
    return null;
  }
}

/** Whether the render asked for a query and got no answer: pending and enabled (a search box's empty query is not). */
export function askedFor(query: Query): boolean {
  if (query.state.status !== 'pending') return false;
  const options = query.options as { enabled?: boolean | ((q: Query) => boolean) };
  const enabled = typeof options.enabled === 'function' ? options.enabled(query) : options.enabled;
  return enabled !== false;
}
