/**
 * API instances as processes of their own (src/main.ts), as deployed: for the tests that
 * kill one (SIGKILL) and start it again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { waitForPorts } from '@marketplace/shared/node/ports';

const API_ROOT = join(import.meta.dirname, '..');

export interface ApiProcess {
  url: string;
  /**
   * Kills the process with the signal (SIGKILL: no shutdown at all) and waits for it to be gone.
   * The signal is sent before the call returns (the promise is only the exit), so a caller can
   * mark the moment of the kill itself rather than the later moment it saw the exit.
   */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts it again with the same environment, after a kill. */
  start(): Promise<void>;
  /** The running process's id (benches read its memory from /proc). */
  readonly pid: number | undefined;
}

export async function startApiProcess(env: Record<string, string>, port: number): Promise<ApiProcess> {
  let child: ChildProcess | null = null;
  const log: string[] = [];
  const start = async () => {
    // One process (node with tsx's loader), so a signal reaches the server itself.
    const running = spawn(process.execPath, ['--import', 'tsx', join(API_ROOT, 'src', 'main.ts')], {
      cwd: API_ROOT,
      env: {
        ...process.env,
        SEED_DEMO: '1',
        SEED_DEMO_MEDIA: '0',
        ...env,
        API_PORT: String(port),
        API_HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = running;
    running.stdout?.on('data', (d) => log.push(String(d)));
    running.stderr?.on('data', (d) => log.push(String(d)));
    // tsx compiles on start: give it longer than a server takes.
    for (let i = 0; i < 6 && running.exitCode === null; i++)
      if (await waitForPorts([port], () => running.exitCode === null)) return;
    running.kill('SIGKILL');
    throw new Error(`the API on ${port} did not start:\n${log.join('')}`);
  };
  await start();
  return {
    url: `http://127.0.0.1:${port}`,
    start,
    get pid() {
      return (child as ChildProcess | null)?.pid;
    },
    async kill(signal) {
      const running = child;
      // Gone already: a process ended by a signal has no exit code, only its signalCode.
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((done) => running.once('exit', done));
      running.kill(signal);
      await exited;
    },
  };
}
