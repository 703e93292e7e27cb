// The release commands (releases/cli.mjs) as the tests run them.
import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../env.js';

/**
 * Runs the release commands (`node releases/cli.mjs ...`) with `vars` over the suite's
 * environment (without a LIVE_SHELL_URL unless `vars` names one); resolves with the exit code and
 * everything it printed.
 */
export async function releasesCli(
  vars: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'releases', 'cli.mjs'), ...args],
      {
        env: releasesEnv(vars),
      },
    );
    return { code: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

function releasesEnv(vars: Record<string, string>): NodeJS.ProcessEnv {
  const { LIVE_SHELL_URL: _none, ...inherited } = process.env;
  return { ...inherited, ...vars };
}

/** A release command left running (the canary watcher): its output so far, and its exit code once it ends. */
export function startReleasesCli(
  vars: Record<string, string>,
  ...args: string[]
): { output: () => string; exited: Promise<number>; stop(): void } {
  const child = spawn(process.execPath, [join(ROOT, 'releases', 'cli.mjs'), ...args], { env: releasesEnv(vars) });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number>((resolve) => child.on('exit', (code) => resolve(code ?? 1)));
  return { output: () => output, exited, stop: () => child.kill('SIGTERM') };
}
