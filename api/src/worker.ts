import { workerConfigOf } from './config.js';
import { startWorker } from './media/worker.js';

// The worker's settings only: it neither needs nor reads the API's serving secrets.
const config = workerConfigOf();
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
