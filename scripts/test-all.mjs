// The README's test command: the format, type checking, lint, every package's unit tests, the production
// builds, the docker-compose file, and the Playwright suite against those builds. Each runner
// prints its own summary; the last line sums every suite: "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import {
  buildApps,
  buildSingle,
  CHROMIUM,
  ensureDebianPackage,
  ensureDebianPackages,
  ensureDeps,
  MEDIA_PACKAGES,
  PRODUCTION_PACKAGES,
  root,
} from './ensure-deps.mjs';

ensureDeps();
console.log(`Node ${process.versions.node}`);
// The API's broker, gateway and PostgreSQL tests and the page server's nginx test run the
// production servers themselves (the API suite runs a second time on PostgreSQL).
if (!ensureDebianPackages({ ...PRODUCTION_PACKAGES, ...MEDIA_PACKAGES }))
  console.error('nginx, RabbitMQ, envsubst, PostgreSQL or ffmpeg is missing: their tests will fail');

const run = (cmd, args, cwd = root, env = process.env) =>
  spawnSync(cmd, args, { cwd, stdio: 'inherit', env }).status === 0;
const out = mkdtempSync(join(tmpdir(), 'test-all-'));
const readJson = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

const checks = [];
const check = (name, ok) => checks.push([name, ok]);
const suites = [];

// Prettier owns the layout: a file it would rewrite fails the run (`pnpm format` fixes it).
check('format', run('pnpm', ['format:check']));
check('typecheck', run('pnpm', ['-r', '--if-present', 'typecheck']));
check('lint', run('pnpm', ['lint']));

// Unit and component tests (vitest) of every package but e2e.
const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
const packages = [...workspace.matchAll(/^\s+-\s+(\S+)\s*$/gm)].map((m) => m[1]).filter((dir) => dir !== 'e2e');
for (const dir of packages) {
  const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  if (pkg.scripts?.test) vitest(dir, dir);
}

/** Runs one package's vitest suite and records its counts. */
function vitest(name, dir, env = process.env) {
  const report = join(out, `${name.replace(/\W+/g, '-')}.json`);
  console.log(`\n=== ${name}: tests ===`);
  const ok = run(
    'pnpm',
    ['test', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    join(root, dir),
    env,
  );
  const json = readJson(report);
  const passed = json?.numPassedTests ?? 0;
  // Skipped and todo tests count as failures: a test that does not run proves nothing.
  const counted = json ? json.numFailedTests + (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0) : 0;
  const failures = (json?.testResults ?? []).flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status !== 'passed')
      .map(
        (test) =>
          `${relative(root, file.name)} > ${test.fullName}: ${firstLine(test.failureMessages?.[0] ?? test.status)}`,
      ),
  );
  suites.push({ name, passed, failed: counted === 0 && !ok ? 1 : counted, failures });
}

/** The first line of a failure message, without terminal colours, for the summary. */
function firstLine(message) {
  return stripVTControlCharacters(message).split('\n')[0].slice(0, 300);
}

console.log('\n=== production builds ===');
let built = true;
try {
  buildApps();
  // The single-bundle build is a supported way to run the product: the e2e suite serves it too.
  buildSingle();
} catch {
  built = false;
}
check('build', built);

console.log('\n=== docker-compose.yml ===');
if (ensureDebianPackage('docker-compose', '/usr/bin/docker-compose')) {
  // The file requires the deployment's secrets (`${NAME:?reason}`): each one it names is given a
  // placeholder unless set, so a secret added to the file needs no change here.
  const composeFile = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
  const composeEnv = { ...process.env };
  for (const [, name] of composeFile.matchAll(/\$\{([A-Z0-9_]+):\?/g)) composeEnv[name] ??= 'validation-only';
  check('docker-compose config', run('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], root, composeEnv));
} else {
  console.log('docker-compose is not available: the file was not validated');
}

console.log('\n=== e2e (Playwright, Chromium) ===');
if (!built) {
  suites.push({ name: 'e2e', passed: 0, failed: 1 });
} else if (!ensureDebianPackage('chromium', CHROMIUM)) {
  console.error('Chromium is missing and could not be installed: the e2e suite cannot run');
  suites.push({ name: 'e2e', passed: 0, failed: 1 });
} else {
  playwright('e2e', 'playwright.config.ts');
  // The same tests of serving and live updates against the production files: nginx, the API
  // gateway, two API instances on PostgreSQL and RabbitMQ's two nodes (one killed under load).
  console.log('\n=== e2e production project (nginx, gateway, PostgreSQL, RabbitMQ cluster) ===');
  playwright('e2e production', 'playwright.prod.config.ts');
}

/** Runs one Playwright configuration of the e2e package and records its counts as a suite. */
function playwright(name, config) {
  const report = join(out, `${name.replace(/\W+/g, '-')}.json`);
  const env = { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: report };
  const ok = run(
    'pnpm',
    ['exec', 'playwright', 'test', '--config', config, '--reporter=list,json'],
    join(root, 'e2e'),
    env,
  );
  const json = readJson(report);
  const stats = json?.stats;
  const passed = (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  const counted = (stats?.unexpected ?? 0) + (stats?.skipped ?? 0);
  const failures = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === 'unexpected' || test.status === 'skipped') {
          const error = test.results?.at(-1)?.error?.message ?? test.status;
          failures.push(`${spec.file}:${spec.line} [${test.projectName}] ${spec.title}: ${firstLine(error)}`);
        }
      }
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of json?.suites ?? []) walk(suite);
  suites.push({ name, passed, failed: counted === 0 && !ok ? 1 : counted, failures });
}

console.log('\n=== summary ===');
for (const [name, ok] of checks) console.log(`${name}: ${ok ? 'ok' : 'FAILED'}`);
for (const s of suites) {
  console.log(`${s.name}: ${s.passed} passed, ${s.failed} failed`);
  // The names of what failed, so a run whose log is cut to its end still says where to look.
  for (const failure of s.failures ?? []) console.log(`  failed: ${failure}`);
}
const passed = suites.reduce((n, s) => n + s.passed, 0);
const failed = suites.reduce((n, s) => n + s.failed, 0) + checks.filter(([, ok]) => !ok).length;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
