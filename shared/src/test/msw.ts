import { http, HttpResponse, type RequestHandler } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, onTestFinished, vi } from 'vitest';

/**
 * The network edge of one test file: an MSW server listening for the file's tests with these
 * handlers, refusing any request nothing handles, and dropping a test's own handlers after it.
 */
export function useMswServer(...handlers: RequestHandler[]): SetupServer {
  const server = setupServer(...handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/**
 * Each fetch made from now on in the test, as the page made it: its credentials mode (whether a
 * browser sends the page's cookies) and keepalive (whether the request outlives the page) are
 * what a browser acts on, and MSW, which rebuilds a request from the bytes sent, cannot see them.
 */
export function watchFetches(): Request[] {
  const requests: Request[] = [];
  const realFetch = globalThis.fetch;
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    requests.push(new Request(input, init));
    return realFetch(input, init);
  });
  onTestFinished(() => spy.mockRestore());
  return requests;
}

/**
 * The handlers of a file server on another origin (the API's upload links, an object store), as a
 * browser needs them for an upload that reports progress: that goes by XMLHttpRequest, whose upload
 * listeners make the browser ask first (a CORS preflight), and whose answer it reads only when it
 * carries the origin's permission. `handlers` answer the requests themselves; their answers get it.
 */
export function crossOriginFiles(origin: string, ...handlers: RequestHandler[]): RequestHandler[] {
  const preflight = http.options(
    `${origin}/*`,
    () =>
      new HttpResponse(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': '*',
          'access-control-allow-methods': 'PUT, POST',
          'access-control-allow-headers': 'content-type',
        },
      }),
  );
  return [preflight, ...handlers];
}

/** A file server's answer with its permission for any origin to read it (a network error stays one). */
export function allowOrigin(response: Response): Response {
  if (response.type !== 'error') response.headers.set('access-control-allow-origin', '*');
  return response;
}
