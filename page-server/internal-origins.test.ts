import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { internalUrl, parseInternalOrigins, reachInternally } from './internal-origins.ts';

let server: Server;
let internal = '';
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.end('internal');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  internal = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('internal origins', () => {
  it('maps a public origin to the one this server reaches it at, path and query kept', () => {
    const origins = parseInternalOrigins('http://localhost:3001=http://header, http://localhost:4000=http://api:4000');
    expect(internalUrl('http://localhost:3001/server/remoteEntry.js?v=1', origins)).toBe(
      'http://header/server/remoteEntry.js?v=1',
    );
    expect(internalUrl('http://localhost:4000/v2/events', origins)).toBe('http://api:4000/v2/events');
    expect(internalUrl('http://localhost:3002/mf-manifest.json', origins)).toBe(
      'http://localhost:3002/mf-manifest.json',
    );
  });

  it('refuses a pair it cannot read', () => {
    expect(() => parseInternalOrigins('http://localhost:3001')).toThrow(/public=internal/);
    expect(parseInternalOrigins('').size).toBe(0);
  });

  it("sends this process's fetches there, strings, URLs and requests alike", async () => {
    const original = globalThis.fetch;
    try {
      reachInternally(`http://public.example=${internal}`);
      expect(await (await fetch('http://public.example/a?b=1')).text()).toBe('internal');
      expect(await (await fetch(new URL('http://public.example/c'))).text()).toBe('internal');
      expect(await (await fetch(new Request('http://public.example/d', { method: 'POST', body: 'x' }))).text()).toBe(
        'internal',
      );
      expect(seen).toEqual(['/a?b=1', '/c', '/d']);
    } finally {
      globalThis.fetch = original;
    }
  });
});
