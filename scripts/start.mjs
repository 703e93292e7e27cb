// The README's start command: installs what is missing, builds the production bundles, then
// starts the API (with its broker) and serves the shell and each remote on its own port.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { buildApps, ensureDeps, root } from './ensure-deps.mjs';

ensureDeps();
buildApps();

const children = [spawn('pnpm', ['--filter', 'api', 'start'], { cwd: root, stdio: 'inherit', env: process.env })];
for (const app of ['shell', 'mf-header', 'mf-media', 'mf-event-order', 'mf-account']) {
  children.push(spawn(process.execPath, [join(root, 'build-preset', 'serve.mjs')], { cwd: join(root, app), stdio: 'inherit', env: process.env }));
}
setTimeout(() => console.log('\n  Open http://localhost:3000  (demo accounts: api/README.md, password demo-pass-2026)\n'), 3000);

const stopAll = (signal) => {
  for (const child of children) child.kill(signal);
  process.exit(0);
};
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
for (const child of children) child.on('exit', (code) => code && code !== 0 && stopAll('SIGTERM'));
