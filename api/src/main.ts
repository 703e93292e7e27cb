import { loadConfigWithSecrets } from './config.js';
import { DEMO_PASSWORD } from './db/seed.js';
import { startApi } from './server.js';

// The secrets the environment leaves unset are kept beside the database: made at the first start.
const config = loadConfigWithSecrets();
const api = await startApi(config);
console.log(`[api] listening on ${api.url} (public ${config.publicOrigin})`);
if (api.internalUrl !== api.url) console.log(`[api] operator routes (/internal) on ${api.internalUrl} only`);
console.log(
  `[api] live: ${config.broker ? `publishing to ${config.broker.urls.join(', ')}` : `embedded broker at ${config.liveUrl}`}`,
);
console.log(`[api] database ${config.databasePath}`);
if (config.seedDemo) console.log(`[api] SEED_DEMO=1: demo accounts share the password ${DEMO_PASSWORD}`);

// SIGTERM (docker stop, an orchestrator) drains: the gateway is told to stop sending first
// (SHUTDOWN_GRACE_MS). SIGINT (Ctrl-C) stops at once, still letting requests under way finish.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void api.close({ graceMs: signal === 'SIGTERM' ? config.shutdownGraceMs : 0 }).then(() => process.exit(0));
  });
}
