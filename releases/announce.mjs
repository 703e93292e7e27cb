// Rollbacks announced to open pages (issue 39, item 6): after the store says a version is rolled
// back, the API publishes it on the live channel, and every logged-in page running that version
// reads the discovery document again and switches at once. Best effort: the document is the
// truth, and a page without a live connection learns the same on focus, on a slot's Retry or at
// its next navigation.

// eslint-disable-next-line import-x/no-relative-packages -- the watcher runs in the API's image, without releases' dependencies
import { messageOf } from '../shared/node/errors.mjs';

/**
 * Tells the API (its operator route, as `apiAccess` finds it) that `version` of `remote` was
 * rolled back, browsers now getting `to`. Resolves with null when announced, else the reason.
 * @param {{ url: string, urls?: string[], token: string }} api
 * @param {{ remote: string, version: string, to: string | null }} rollback
 * @returns {Promise<string | null>}
 */
export async function announceRollback(api, rollback) {
  let failure = 'no API address';
  for (const url of api.urls?.length ? api.urls : [api.url]) {
    try {
      const response = await fetch(`${url}/internal/releases/rollback`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(rollback),
        signal: AbortSignal.timeout(5_000),
      });
      if (response.ok) return null;
      failure = `the API at ${url} answered ${response.status}`;
      if (response.status < 500) break;
    } catch (error) {
      failure = `the API at ${url}: ${messageOf(error)}`;
    }
  }
  return failure;
}
