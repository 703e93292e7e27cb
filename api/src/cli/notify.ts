/**
 * Creates a notification for a user and publishes it live, through the running API:
 *   pnpm --filter api notify <profileName> <text> [link]
 * Reads the same environment as the API (API_PORT, DATABASE_PATH for the admin token file).
 */
import { loadConfig } from '../config.js';

const [profileName, content, link] = process.argv.slice(2);
if (!profileName || !content) {
  console.error('usage: pnpm --filter api notify <profileName> <text> [link]');
  process.exit(2);
}
const config = loadConfig();
const base = process.env.API_URL ?? `http://${config.host}:${config.port}`;
const response = await fetch(`${base}/internal/notify`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${config.adminToken}` },
  body: JSON.stringify({ profileName, content, link: link ?? null }),
}).catch((err: unknown) => {
  console.error(`notify: cannot reach the API at ${base}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
const body: unknown = await response.json();
if (!response.ok) {
  console.error(`notify: ${response.status} ${JSON.stringify(body)}`);
  process.exit(1);
}
console.log(`notified ${profileName}: ${JSON.stringify(body)}`);
