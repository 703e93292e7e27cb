// The README's test command: type checking, lint, then every package's tests, each with its
// runner's own summary, ending with one line that sums all suites.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDeps, root } from './ensure-deps.mjs';

ensureDeps();

const run = (cmd, args, cwd = root) => spawnSync(cmd, args, { cwd, stdio: 'inherit', env: process.env }).status === 0;

const checks = [
  ['typecheck', run('pnpm', ['-r', '--if-present', 'typecheck'])],
  ['lint', run('pnpm', ['lint'])],
];

const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
const packages = [...workspace.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1]);
const out = mkdtempSync(join(tmpdir(), 'test-all-'));
const suites = [];
for (const dir of packages) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  if (!pkg.scripts?.test) continue;
  const report = join(out, `${dir}.json`);
  console.log(`\n=== ${dir}: tests ===`);
  const ok = run('pnpm', ['test', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`], join(root, dir));
  // No report, or a run that failed with nothing counted (a file that did not load), is one failure.
  const json = existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : null;
  const passed = json?.numPassedTests ?? 0;
  const counted = json ? json.numFailedTests + (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0) : 0;
  const failed = counted === 0 && !ok ? 1 : counted;
  suites.push({ dir, passed, failed });
}

console.log('\n=== summary ===');
for (const [name, ok] of checks) console.log(`${name}: ${ok ? 'ok' : 'FAILED'}`);
for (const s of suites) console.log(`${s.dir}: ${s.passed} passed, ${s.failed} failed`);
const passed = suites.reduce((n, s) => n + s.passed, 0);
const failed = suites.reduce((n, s) => n + s.failed, 0) + checks.filter(([, ok]) => !ok).length;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
