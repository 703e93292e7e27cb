// The README's start command: installs what is missing, builds the production bundles, then
// starts the API (with its broker) and serves the shell and each remote on its own port.
// With --single: the single-bundle build instead, one application on port 3010.
// With --prod (`npm run start:prod`): the production topology of docker-compose without Docker
// (start-prod.mjs). Every mode also runs the canary watcher on the release store.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildApps,
  buildSingle,
  ensureDebianPackages,
  ensureDeps,
  MEDIA_PACKAGES,
  PRODUCTION_PACKAGES,
  root,
} from './ensure-deps.mjs';
import { startProduction } from './start-prod.mjs';

// The platform table as data (shared/src/platform): readable before anything is installed.
const PLATFORM = JSON.parse(readFileSync(join(root, 'shared', 'platform.json'), 'utf8'));

const single = process.argv.includes('--single');
const prod = process.argv.includes('--prod');
ensureDeps();
if (prod && !ensureDebianPackages(PRODUCTION_PACKAGES)) {
  console.error(
    "start --prod needs Debian's nginx, rabbitmq-server, gettext-base and postgresql-15, which could not be installed",
  );
  process.exit(1);
}
// Videos are transcoded by Debian's ffmpeg; without it a video upload is refused as unreadable.
if (!ensureDebianPackages(MEDIA_PACKAGES))
  console.error("[setup] Debian's ffmpeg could not be installed: video uploads will fail");
if (single) buildSingle();
else buildApps();

// The key the shell's page server signs each page load's beacon token with and the API checks
// (RUM_TOKEN_KEY, page-server/rum-token.ts): made once, kept beside the API's database like its
// admin token (the API reads the same file when started alone), handed to every process below.
if (!process.env.RUM_TOKEN_KEY) {
  const keyFile = join(root, 'api', 'data', 'rum-token-key');
  mkdirSync(join(root, 'api', 'data'), { recursive: true });
  if (!existsSync(keyFile)) writeFileSync(keyFile, randomBytes(32).toString('base64url'), { mode: 0o600 });
  process.env.RUM_TOKEN_KEY = readFileSync(keyFile, 'utf8').trim();
}

const APPS = [PLATFORM.shell, ...Object.values(PLATFORM.remotes)];
const serve = (app, ...args) =>
  spawn(process.execPath, [join(root, 'page-server', 'serve.ts'), ...args], {
    cwd: join(root, app),
    stdio: 'inherit',
    env: process.env,
  });
const children = [];
// How the canary watcher (below) reaches the API's figures: by default the API `npm start` runs on
// 4000 with the token it keeps in api/data/admin-token; under --prod, the instances' operator ports.
let watcherEnv = {};
if (prod) watcherEnv = await startProduction({ children, apps: APPS, shell: PLATFORM.shell });
else {
  children.push(
    spawn('pnpm', ['--filter', 'api', 'start'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SEED_DEMO: '1' },
    }),
  );
  if (single) children.push(serve('shell', '--single'));
  else for (const app of APPS) children.push(serve(app.package));
}
// The canary watcher (releases/watcher-service.mjs): judges every canary of the
// release store (RELEASES_DIR, default releases/store/) released with --watch, whether or not a
// terminal follows it; its state is the store, so a restart goes on at the same step.
children.push(
  spawn(process.execPath, [join(root, 'releases', 'watcher-service.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...watcherEnv },
  }),
);
const url = `http://localhost:${single ? PLATFORM.singleBundlePort : PLATFORM.shell.devPort}`;
setTimeout(() => console.log(`\n  Open ${url}  (demo accounts: api/README.md, password demo-pass-2026)\n`), 3000);

const stopAll = (signal) => {
  for (const child of children) child.kill(signal);
  process.exit(0);
};
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
for (const child of children) child.on('exit', (code) => code && code !== 0 && stopAll('SIGTERM'));
