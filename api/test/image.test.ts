/**
 * The API started as its image starts it (api/Dockerfile's WORKDIR and CMD, read from the file):
 * the process that gets docker stop's SIGTERM is the API itself, which drains. A request under way
 * when the signal arrives is answered, /health says 503 meanwhile so a proxy stops sending, and the
 * process exits 0 once done.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { waitForPorts } from '@marketplace/shared/node/ports';
import { ADMIN_TOKEN, freePort, freshDatabase } from './harness.js';

const REPO = join(import.meta.dirname, '..', '..');
/** Where the image copies the repository (api/Dockerfile: WORKDIR /repo, COPY . .). */
const IMAGE_REPO = '/repo';
const GRACE_MS = 800;

/** The image's command line and folder, from the Dockerfile's last WORKDIR and its CMD (exec form). */
function imageCommand(): { command: string[]; cwd: string } {
  const lines = readFileSync(join(REPO, 'api', 'Dockerfile'), 'utf8').split('\n');
  const workdir = lines
    .filter((line) => line.startsWith('WORKDIR '))
    .at(-1)
    ?.slice('WORKDIR '.length)
    .trim();
  const cmd = lines.find((line) => line.startsWith('CMD '))?.slice('CMD '.length);
  if (!workdir?.startsWith(IMAGE_REPO) || !cmd) throw new Error('api/Dockerfile has no WORKDIR under /repo or no CMD');
  const command = JSON.parse(cmd) as string[];
  return { command, cwd: join(REPO, relative(IMAGE_REPO, workdir)) };
}

/** One POST whose body arrives in two parts, the second when `rest` is called. */
function slowPost(port: number, path: string, body: Buffer, contentType: string) {
  let rest = () => {};
  let taken = () => {};
  /** The server has the request (its 100 Continue, sent as it begins to answer it). */
  const received = new Promise<void>((resolve) => (taken = resolve));
  const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'content-type': contentType, 'content-length': body.length, expect: '100-continue' },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += String(chunk)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: text }));
      },
    );
    req.on('error', reject);
    req.once('continue', taken);
    req.write(body.subarray(0, body.length / 2));
    rest = () => req.end(body.subarray(body.length / 2));
  });
  return { answer, received, rest: () => rest() };
}

describe('the API as its image runs it', () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let child: ChildProcess;
  let port: number;
  const log: string[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'api-image-'));
    database = await freshDatabase(dir);
    port = await freePort();
    const { command, cwd } = imageCommand();
    const [program = '', ...args] = command;
    // The same Node as the tests for `node`; anything else (pnpm, tsx) as the image would find it.
    child = spawn(program === 'node' ? process.execPath : program, args, {
      cwd,
      env: {
        ...process.env,
        ...database.env,
        API_HOST: '127.0.0.1',
        API_PORT: String(port),
        MEDIA_DIR: join(dir, 'media'),
        ADMIN_TOKEN,
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d) => log.push(String(d)));
    child.stderr?.on('data', (d) => log.push(String(d)));
    // tsx compiles on start: give it longer than a server takes.
    for (let i = 0; i < 6 && child.exitCode === null; i++)
      if (await waitForPorts([port], () => child.exitCode === null)) return;
    throw new Error(`the API did not start as the image starts it:\n${log.join('')}`);
  });
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('drains on SIGTERM: the request under way is answered, /health is 503 meanwhile, and it exits 0', async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      name: 'Ada',
      email: 'ada@example.com',
      subject: 'Shutdown',
      message: 'Sent while the instance stops',
    }))
      form.append(key, value);
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const post = slowPost(port, '/v2/submitContactInfo', body, encoded.headers.get('content-type') ?? '');
    await post.received;

    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    child.kill('SIGTERM');
    // Draining once the signal is handled: /health says so from then on.
    await vi.waitFor(
      async () => {
        const health = await fetch(`http://127.0.0.1:${port}/health`);
        expect([health.status, await health.json()]).toMatchObject([503, { ok: false, draining: true }]);
      },
      { timeout: 5000, interval: 50 },
    );

    post.rest();
    const answer = await post.answer;
    expect([answer.status, JSON.parse(answer.body)]).toEqual([200, { received: true }]);
    // The gateway is told not to send anything more on this connection.
    expect(answer.connection).toBe('close');

    expect(await exited).toEqual({ code: 0, signal: null });
    expect(log.join('')).not.toMatch(/ERR|Error/);
  }, 30_000);
});
