import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { announceRollback } from './announce.mjs';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** An API stand-in answering `status` and keeping what it was sent. */
async function api(status: number): Promise<{ url: string; got: { auth?: string; body: unknown }[] }> {
  const got: { auth?: string; body: unknown }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      got.push({
        auth: req.headers.authorization,
        body: req.url === '/internal/releases/rollback' ? JSON.parse(text) : null,
      });
      res.statusCode = status;
      res.end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, got };
}

const rollback = { remote: 'header', version: 'aaaaaaaaaaaa', to: 'bbbbbbbbbbbb' };

describe('announceRollback', () => {
  it('posts the rollback to the first instance that answers, with the admin token', async () => {
    const down = await api(503);
    const up = await api(202);
    expect(await announceRollback({ url: down.url, urls: [down.url, up.url], token: 't0k' }, rollback)).toBeNull();
    expect(up.got).toEqual([{ auth: 'Bearer t0k', body: rollback }]);
    expect(down.got).toHaveLength(1);
  });

  it('says why when nobody heard it, and stops at a refusal', async () => {
    const refusing = await api(401);
    const other = await api(202);
    expect(await announceRollback({ url: refusing.url, urls: [refusing.url, other.url], token: 'x' }, rollback)).toBe(
      `the API at ${refusing.url} answered 401`,
    );
    expect(other.got).toHaveLength(0);
    expect(await announceRollback({ url: 'http://127.0.0.1:1', token: 'x' }, rollback)).toMatch(
      /^the API at http:\/\/127\.0\.0\.1:1: /,
    );
  });
});
