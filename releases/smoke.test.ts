import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSandboxed } from './smoke.mjs';

// Issue 38, item 5: the gate's server render runs a candidate nobody trusts yet. Its process may
// read, write only its scratch folder (never the store the release is writing), and is killed
// when it does not finish.
describe("the smoke render's process", () => {
  const folders = () => ({
    scratch: mkdtempSync(join(tmpdir(), 'scratch-')),
    store: mkdtempSync(join(tmpdir(), 'store-')),
  });

  it("reads, writes its scratch folder only (never the store), and has none of the runner's environment", async () => {
    const { scratch, store } = folders();
    const shell = mkdtempSync(join(tmpdir(), 'shell-'));
    writeFileSync(join(shell, 'index.html'), 'the shell');
    writeFileSync(join(store, 'discovery.json'), '{"remotes":{}}');
    const script = join(scratch, 'candidate.cjs');
    const attempt = (what: string, code: string) =>
      `try { ${code}; console.log('${what}: done'); } catch (e) { console.log('${what}: refused', e.code); }`;
    writeFileSync(
      script,
      `const fs = require('node:fs');
console.log('read', fs.readFileSync(${JSON.stringify(join(shell, 'index.html'))}, 'utf8'));
fs.writeFileSync(${JSON.stringify(join(scratch, 'mine.txt'))}, 'ok');
${attempt('write the store', `fs.writeFileSync(${JSON.stringify(join(store, 'discovery.json'))}, '{"remotes":{"header":"evil"}}')`)}
console.log('secret', String(process.env.SMOKE_TEST_SECRET));`,
    );
    process.env.SMOKE_TEST_SECRET = 'the runner token';
    try {
      const { stdout } = await runSandboxed([script], { scratch, timeoutMs: 20_000 });
      expect(stdout).toContain('read the shell');
      expect(readFileSync(join(scratch, 'mine.txt'), 'utf8')).toBe('ok');
      expect(stdout).toContain('write the store: refused ERR_ACCESS_DENIED');
      expect(stdout).toContain('secret undefined');
      expect(readFileSync(join(store, 'discovery.json'), 'utf8')).toBe('{"remotes":{}}');
    } finally {
      delete process.env.SMOKE_TEST_SECRET;
    }
  });

  it('may start no process of its own, and is killed when it does not finish in time', async () => {
    const { scratch } = folders();
    const spawner = join(scratch, 'spawner.cjs');
    writeFileSync(
      spawner,
      `try { require('node:child_process').execSync('touch ${join(scratch, 'escaped')}'); console.log('spawned'); } catch (e) { console.log('refused', e.code); }`,
    );
    expect((await runSandboxed([spawner], { scratch, timeoutMs: 20_000 })).stdout).toContain(
      'refused ERR_ACCESS_DENIED',
    );
    expect(existsSync(join(scratch, 'escaped'))).toBe(false);

    const hanging = join(scratch, 'hanging.cjs');
    writeFileSync(hanging, 'setInterval(() => {}, 1000);');
    const { error } = await runSandboxed([hanging], { scratch, timeoutMs: 1000 });
    expect(error?.killed).toBe(true);
  });
});
