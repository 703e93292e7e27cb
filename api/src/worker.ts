import { loadConfig } from './config.js';
import { startWorker } from './media/worker.js';

const config = loadConfig();
const worker = await startWorker(config);
console.log(
  `[media-worker] taking media jobs, ${config.mediaConcurrency} at a time, from ${config.databaseUrl ? 'pg-boss' : config.databasePath}`,
);

// A job under way finishes before the process ends (a SIGKILL leaves it to another worker after its lease).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void worker.stop().then(() => process.exit(0));
  });
}
