// Where a page server reaches what browsers reach at public addresses. In a container network
// (docker-compose), `http://localhost:3001` is the browser's address of the header remote, not
// the page server's: `INTERNAL_ORIGINS="http://localhost:3001=http://header,http://localhost:4000=http://api-gateway"`
// sends this process's requests for the first to the second (the composition's manifests, the
// remotes' server builds, the API calls of a render), while the page keeps the public addresses.

/** `public=internal` pairs, comma-separated, as a map of origins. */
export function parseInternalOrigins(spec: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const pair of (spec ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [from, to] = pair.split('=');
    if (!from || !to) throw new Error(`INTERNAL_ORIGINS: "${pair}" is not public=internal`);
    map.set(new URL(from).origin, new URL(to).origin);
  }
  return map;
}

/** The URL a request for `url` goes to from here. */
export function internalUrl(url: string, origins: Map<string, string>): string {
  const parsed = new URL(url);
  const to = origins.get(parsed.origin);
  return to ? `${to}${parsed.pathname}${parsed.search}` : url;
}

/**
 * Routes this process's fetches to the internal origins (the page server's own process only:
 * its renders call the API through the global fetch). Nothing changes when `spec` is empty.
 */
export function reachInternally(spec: string | undefined): void {
  const origins = parseInternalOrigins(spec);
  if (origins.size === 0) return;
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    if (typeof input === 'string' || input instanceof URL) return original(internalUrl(String(input), origins), init);
    return original(new Request(internalUrl(input.url, origins), input), init);
  };
}
