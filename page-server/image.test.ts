import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, waitForPorts } from '@marketplace/shared/node/ports';

// The page server as its image (page-server/Dockerfile, target `pages`) starts it: `node serve.ts`
// is PID 1 there, where a signal without a handler does nothing: SIGTERM must end it, with code 0.
const REPO = join(import.meta.dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'pages-image-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The `pages` stage's CMD (exec form), its /repo paths pointing into this checkout. */
function pagesCommand(): string[] {
  const dockerfile = readFileSync(join(import.meta.dirname, 'Dockerfile'), 'utf8');
  const stage = dockerfile.split(/^FROM /m).find((s) => /^\S+ AS pages$/m.test(s.split('\n')[0] ?? '')) ?? '';
  const cmd = /^CMD (\[.*\])$/m.exec(stage)?.[1];
  if (!cmd) throw new Error('page-server/Dockerfile has no `pages` stage with a CMD');
  return (JSON.parse(cmd) as string[]).map((arg) => arg.replace(/^\/repo\//, `${REPO}/`));
}

describe('the page server as its image runs it', () => {
  it('ends on SIGTERM with exit code 0', async () => {
    const [program, ...args] = pagesCommand();
    expect(program).toBe('node');
    // A remote's build stands in for the shell's (which this checkout may not have built).
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'package.json'), '{"name":"mf-header"}');
    writeFileSync(join(dir, 'dist', 'mf-manifest.json'), '{"id":"header"}');
    const port = await freePort();
    const child = spawn(process.execPath, args, {
      cwd: dir,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: 'ignore',
    });
    try {
      expect(await waitForPorts([port], () => child.exitCode === null)).toBe(true);
      // A kept-alive connection, idle once answered, does not hold the exit up.
      expect((await fetch(`http://127.0.0.1:${port}/mf-manifest.json`)).status).toBe(200);
      const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
