// `pnpm bench`: installs what is missing, builds the federated apps and the single-bundle build
// (skip with --no-build), then runs the cold-load benchmark (e2e/bench/bench.mjs) and the
// interaction benchmark (e2e/bench/inp.mjs).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildApps, buildSingle, CHROMIUM, ensureDebianPackage, ensureDeps, root } from './ensure-deps.mjs';

ensureDeps();
if (!ensureDebianPackage('chromium', CHROMIUM)) {
  console.error('bench: Chromium is missing and could not be installed');
  process.exit(1);
}
if (!process.argv.includes('--no-build')) {
  buildApps();
  buildSingle();
}
for (const bench of ['bench.mjs', 'inp.mjs'])
  execFileSync(process.execPath, [join(root, 'e2e', 'bench', bench)], { cwd: join(root, 'e2e'), stdio: 'inherit' });
