import { dehydrate, hydrate, type DehydratedState, type Query, type QueryClient } from '@tanstack/react-query';
import { ApiError, statusOf } from '../api/client.js';
import type { CartItem, UserInfo } from '../contract/entities.js';
import { REMOTE_NAMES, type RemoteName } from '../platform/remotes.js';

/** The id of the data-only block a server-rendered page carries its state in. */
export const SERVER_STATE_ELEMENT_ID = 'platform-server-state';

/**
 * What a page's server hands the browser with the HTML it rendered, so the browser hydrates
 * that HTML as it is: the API answers the render used, and which remote modules it rendered from
 * which manifest (the browser loads those before it hydrates; any other slot starts loading).
 */
export interface ServerState {
  queries: DehydratedState;
  /** `remote/Module` -> the manifest URL of the version rendered. */
  slots: Record<string, string>;
  /**
   * What threw while the server rendered the page, by remote (each error once): the browser
   * renders those parts afresh and reports these as the page's own (mountApp, issue 39, item 1).
   */
  failures?: ServerFailure[];
  /**
   * A random id of this render: every copy of the page nginx keeps and serves carries the same
   * one, and the page's beacons name it (Beacon['render']), so a canary is judged on one load
   * per render rather than on every visitor served a copy of it.
   */
  render?: string;
  /**
   * A logged-in visitor's session as the server rendered the page with it (their header, their
   * cart): the browser's session store starts from it, so the page hydrates as sent, then checks
   * it as on any load (a session that ended meanwhile ends as any other).
   */
  session?: ServerSession;
  /**
   * Whether the server rendered the page for a logged-in visitor. A kept visitors' page can reach
   * a browser whose loggedIn cookie says yes (nginx gives it to a claim without a live session):
   * that browser's session store starts from what was rendered, so it hydrates the page as sent,
   * and its load then finds the session dead as on any other page load.
   */
  loggedIn?: boolean;
}

export interface ServerSession {
  user: UserInfo;
  cart: CartItem[];
}

const isServerSession = (value: unknown): value is ServerSession => {
  const session = value as Partial<ServerSession> | null;
  return (
    typeof session === 'object' &&
    session !== null &&
    typeof session.user?.username === 'string' &&
    session.user.username !== '' &&
    Array.isArray(session.cart)
  );
};

/** A render's id as the server draws it (crypto.randomUUID). */
const RENDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A remote that threw while the page's server rendered it, in the error's words. */
export interface ServerFailure {
  remote: RemoteName;
  message: string;
}

const isServerFailure = (value: unknown): value is ServerFailure =>
  typeof value === 'object' &&
  value !== null &&
  REMOTE_NAMES.includes((value as { remote?: unknown }).remote as RemoteName) &&
  typeof (value as { message?: unknown }).message === 'string';

/** An API failure as it crosses into the page (an Error's message is not serialised by JSON). */
interface SentError {
  apiError: { status: number; message: string };
}

const isSentError = (value: unknown): value is SentError =>
  typeof value === 'object' && value !== null && 'apiError' in value;

/** A query the API answered "does not exist" (404): an answer the page shows, not a failure. */
export const isNotFoundQuery = (query: Query): boolean =>
  query.state.status === 'error' && statusOf(query.state.error) === 404;

/**
 * The query cache's answers for the page: what was read, and "does not exist" (404, so the page
 * says "not found" again in the browser without asking). Other failures are not sent: the page
 * showed them loading, and the browser asks again.
 */
export function dehydrateForPage(client: QueryClient): DehydratedState {
  const state = dehydrate(client, {
    shouldDehydrateQuery: (query) => query.state.status === 'success' || isNotFoundQuery(query),
  });
  return {
    ...state,
    queries: state.queries.map((query) =>
      query.state.error instanceof ApiError
        ? {
            ...query,
            state: {
              ...query.state,
              error: { apiError: { status: query.state.error.status, message: query.state.error.message } } as never,
            },
          }
        : query,
    ),
  };
}

/**
 * "Does not exist" stays said when the page mounts: by default a query that failed asks again
 * on mount, showing loading meanwhile, so the browser would neither show the server's "not
 * found" nor match its HTML. Only those keys (a 404 is not retried anyway); both sides call it.
 */
export function keepNotFoundAnswers(client: QueryClient): void {
  for (const query of client.getQueryCache().findAll({ predicate: isNotFoundQuery }))
    client.setQueryDefaults(query.queryKey, { retryOnMount: false });
}

/** Puts a server's answers into the browser's query cache, failures as the ApiError they were. */
export function hydrateFromPage(client: QueryClient, state: DehydratedState): void {
  hydrate(client, {
    ...state,
    queries: state.queries.map((query) => {
      const error: unknown = query.state.error;
      return isSentError(error)
        ? {
            ...query,
            state: { ...query.state, error: new ApiError(error.apiError.status, error.apiError.message) as never },
          }
        : query;
    }),
  });
  keepNotFoundAnswers(client);
}

/**
 * The block a server writes into the page: JSON that stays data whatever it holds (`<` is
 * escaped, so an event named `</script><script>…` cannot end the element).
 */
export const stateScript = (state: ServerState): string =>
  `<script type="application/json" id="${SERVER_STATE_ELEMENT_ID}">${JSON.stringify(state).replaceAll('<', '\\u003c')}</script>`;

/** The server's state in this page, or null (a page rendered in the browser only, or a broken block). */
export function serverStateInPage(
  doc: Pick<Document, 'getElementById'> | undefined = globalThis.document,
): ServerState | null {
  const text = doc?.getElementById(SERVER_STATE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<Record<keyof ServerState, unknown>> | null;
    const queries = value?.queries as DehydratedState | undefined;
    if (!value || !queries || !Array.isArray(queries.queries) || typeof value.slots !== 'object' || !value.slots)
      return null;
    const slots = value.slots as Record<string, string>;
    // A page of an older server has none; one that is not a list of failures is left out, not trusted.
    const failures = Array.isArray(value.failures) ? value.failures.filter(isServerFailure) : [];
    // One that is not a session is left out: the browser loads its own.
    const session = isServerSession(value.session) ? value.session : undefined;
    const loggedIn = typeof value.loggedIn === 'boolean' ? value.loggedIn : undefined;
    const render = typeof value.render === 'string' && RENDER_ID.test(value.render) ? value.render : undefined;
    return {
      queries,
      slots,
      ...(failures.length > 0 && { failures }),
      ...(render && { render }),
      ...(session && { session }),
      ...(loggedIn !== undefined && { loggedIn }),
    };
  } catch {
    return null;
  }
}
