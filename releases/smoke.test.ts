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

  it('reads anything, writes its scratch folder, and is refused a write anywhere else (the store)', async () => {
    const { scratch, store } = folders();
    writeFileSync(join(store, 'discovery.json'), '{"remotes":{}}');
    const script = join(scratch, 'candidate.cjs');
    writeFileSync(
      script,
      `const fs = require('node:fs');
console.log('read', fs.readFileSync(${JSON.stringify(join(store, 'discovery.json'))}, 'utf8'));
fs.writeFileSync(${JSON.stringify(join(scratch, 'mine.txt'))}, 'ok');
try { fs.writeFileSync(${JSON.stringify(join(store, 'discovery.json'))}, '{"remotes":{"header":"evil"}}'); console.log('wrote the store'); }
catch (e) { console.log('refused', e.code); }`,
    );
    const { stdout } = await runSandboxed([script], { scratch, timeoutMs: 20_000 });
    expect(stdout).toContain('read {"remotes":{}}');
    expect(readFileSync(join(scratch, 'mine.txt'), 'utf8')).toBe('ok');
    expect(stdout).toContain('refused ERR_ACCESS_DENIED');
    expect(readFileSync(join(store, 'discovery.json'), 'utf8')).toBe('{"remotes":{}}');
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
