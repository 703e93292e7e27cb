import { workerConfigWithSecrets } from './config.js';
import { startWorker } from './media/worker.js';

// The worker's settings only: it neither needs nor reads the API's serving secrets (of the kept
// ones, the file link key alone, which signs the links its jobs write).
const config = workerConfigWithSecrets();
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
