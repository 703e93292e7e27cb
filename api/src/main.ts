import { loadConfig } from './config.js';
import { DEMO_PASSWORD } from './db/seed.js';
import { startApi } from './server.js';

const config = loadConfig();
const api = await startApi(config);
console.log(`[api] listening on ${api.url} (public ${config.publicOrigin})`);
console.log(
  `[api] live: ${config.brokerUrl ? `publishing to ${config.brokerUrl}` : `embedded broker at ${config.liveUrl}`}`,
);
console.log(`[api] database ${config.databasePath}; demo accounts share the password ${DEMO_PASSWORD}`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void api.close().then(() => process.exit(0));
  });
}
