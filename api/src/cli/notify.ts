/**
 * Creates a notification for a user and publishes it live, through the running API:
 *   pnpm --filter api notify <profileName> <text> [link]
 * Reads the same environment as the API (API_PORT or API_INTERNAL_PORT, DATABASE_PATH for the
 * admin token file); API_INTERNAL_URL names an instance's operator listener elsewhere (the public
 * gateway does not pass /internal).
 */
import { messageOf } from '@marketplace/shared/errors';
import { loadConfigWithSecrets } from '../config.js';

const [profileName, content, link] = process.argv.slice(2);
if (!profileName || !content) {
  console.error('usage: pnpm --filter api notify <profileName> <text> [link]');
  process.exit(2);
}
const config = loadConfigWithSecrets();
// A server listening on every address is reached on loopback.
const host = (config.internalPort === null ? config.host : config.internalHost).replace(
  /^(0\.0\.0\.0|::)$/,
  '127.0.0.1',
);
const base =
  process.env.API_INTERNAL_URL ?? process.env.API_URL ?? `http://${host}:${config.internalPort ?? config.port}`;
const response = await fetch(`${base}/internal/notify`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${config.adminToken}` },
  body: JSON.stringify({ profileName, content, link: link ?? null }),
}).catch((err: unknown) => {
  console.error(`notify: cannot reach the API at ${base}: ${messageOf(err)}`);
  process.exit(1);
});
// JSON from the API; a gateway's own 404 page is not.
const body = (await response.text()).trim();
if (!response.ok) {
  // No instance's name on the answer: the gateway refused it, not the API.
  const hint =
    response.status === 404 && !response.headers.has('x-api-instance')
      ? ": the gateway does not pass /internal, set API_INTERNAL_URL to an instance's internal port"
      : '';
  console.error(`notify: ${response.status} from ${base}${hint}\n${body}`);
  process.exit(1);
}
console.log(`notified ${profileName}: ${body}`);
