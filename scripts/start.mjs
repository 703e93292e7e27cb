// The README's start command: installs what is missing, builds the production bundles, then
// starts the API (with its broker) and serves the shell and each remote on its own port.
// With --single: the single-bundle build instead, one application on port 3010.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApps, buildSingle, ensureDeps, root } from './ensure-deps.mjs';

// The platform table as data (shared/src/platform): readable before anything is installed.
const PLATFORM = JSON.parse(readFileSync(join(root, 'shared', 'platform.json'), 'utf8'));

const single = process.argv.includes('--single');
ensureDeps();
if (single) buildSingle();
else buildApps();

const serve = (app, ...args) => spawn(process.execPath, [join(root, 'build-preset', 'serve.mjs'), ...args], { cwd: join(root, app), stdio: 'inherit', env: process.env });
const children = [spawn('pnpm', ['--filter', 'api', 'start'], { cwd: root, stdio: 'inherit', env: process.env })];
if (single) children.push(serve('shell', '--single'));
else for (const app of [PLATFORM.shell.package, ...Object.values(PLATFORM.remotes).map((r) => r.package)]) children.push(serve(app));
const url = `http://localhost:${single ? PLATFORM.singleBundlePort : PLATFORM.shell.devPort}`;
setTimeout(() => console.log(`\n  Open ${url}  (demo accounts: api/README.md, password demo-pass-2026)\n`), 3000);

const stopAll = (signal) => {
  for (const child of children) child.kill(signal);
  process.exit(0);
};
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
for (const child of children) child.on('exit', (code) => code && code !== 0 && stopAll('SIGTERM'));
