/**
 * The operator routes on a port of their own (API_INTERNAL_PORT): served there, and on the public
 * port not at all, however the path is spelled; the rest of the API stays on the public port.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, useTestApi } from './harness.js';

const t = useTestApi({ API_INTERNAL_PORT: '0' });

/** A request with its path sent as written (fetch would resolve `..` and the like first). */
function raw(base: string, method: string, path: string, body = ''): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        method,
        path,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += String(chunk)));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const NOTIFY = JSON.stringify({ profileName: 'clara', content: 'From the operator' });

describe('the internal port', () => {
  it('is a listener of its own, on the API host', () => {
    const { url, internalUrl } = t().api;
    expect(internalUrl).not.toBe(url);
    expect(new URL(internalUrl).hostname).toBe('127.0.0.1');
  });

  it('serves the operator routes', async () => {
    const { internalUrl } = t().api;
    expect((await raw(internalUrl, 'POST', '/internal/notify', NOTIFY)).status).toBe(201);
    expect((await raw(internalUrl, 'GET', '/internal/rum/figures')).status).toBe(200);
    expect((await raw(internalUrl, 'GET', '/internal/rum/figures').then((r) => r.text)).length).toBeGreaterThan(0);
  });

  it('leaves them out of the public port, however the path is spelled', async () => {
    const { url } = t().api;
    for (const path of [
      '/internal/notify',
      '/%69nternal/notify',
      '/internal/%6Eotify',
      '//internal/notify',
      '/v2/../internal/notify',
      '/./internal/notify',
      '/internal/notify/',
      '/internal/notify?x=1',
    ])
      expect([path, (await raw(url, 'POST', path, NOTIFY)).status]).toEqual([path, 404]);
    expect((await raw(url, 'GET', '/internal/rum/figures')).status).toBe(404);
  });

  it('keeps the public API on the public port', async () => {
    const { url } = t().api;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await t().client().call('getEvents')).status).toBe(200);
  });
});
