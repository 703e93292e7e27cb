/**
 * The operator routes on a port of their own (API_INTERNAL_PORT): served there, and on the public
 * port not at all, however the path is spelled; the rest of the API stays on the public port. The
 * broker's questions there answer only the credential the broker's configuration carries.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROKER_AUTH_USER as RABBITMQ_BROKER_AUTH_USER,
  localNodeConfig,
  RABBITMQ_CONF,
} from '../rabbitmq/node-config.mjs';
import { BROKER_AUTH_USER, loadConfig } from '../src/config.js';
import { ADMIN_TOKEN, startTestApi, type TestApi, useTestApi } from './harness.js';
import { startStandInBroker, type StandInBroker } from './standInBroker.js';

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
      '/internal/broker/user',
      '/internal/broker/%75ser',
    ])
      expect([path, (await raw(url, 'POST', path, NOTIFY)).status]).toEqual([path, 404]);
    for (const path of ['/internal/rum/figures', '/internal/mailbox', '/%69nternal/mailbox', '/internal/mailbox/x.eml'])
      expect([path, (await raw(url, 'GET', path)).status]).toEqual([path, 404]);
  });

  it('serves the dev mailbox on the internal port only', async () => {
    const { url, internalUrl } = t().api;
    expect(t().config.mail.mode).toBe('dev');
    expect((await raw(internalUrl, 'GET', '/internal/mailbox')).status).toBe(200);
    expect((await raw(url, 'GET', '/internal/mailbox')).status).toBe(404);
  });

  it('keeps the public API on the public port', async () => {
    const { url } = t().api;
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect((await t().client().call('getEvents')).status).toBe(200);
  });
});

describe("the broker's questions (/internal/broker/*)", () => {
  let broker: StandInBroker;
  let api: TestApi;
  const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  /** A question as RabbitMQ's HTTP backend asks it: a form POST, with the credential its URL carries. */
  const ask = (base: string, route: string, form: Record<string, string>, authorization?: string) =>
    fetch(`${base}/internal/broker/${route}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(authorization === undefined ? {} : { authorization }),
      },
      body: new URLSearchParams(form).toString(),
    }).then(async (res) => ({ status: res.status, text: await res.text() }));
  const apiLogin = () => ({ username: 'api', password: broker.env.MQTT_PASSWORD });
  const credential = () => basic(BROKER_AUTH_USER, broker.env.BROKER_AUTH_SECRET);

  beforeAll(async () => {
    broker = await startStandInBroker();
    api = await startTestApi({ ...broker.env });
  });
  afterAll(async () => {
    await api?.close();
    await broker?.close();
  });

  it('answers the broker, which presents its credential, on the internal port', async () => {
    const { internalUrl } = api.api;
    expect(await ask(internalUrl, 'user', apiLogin(), credential())).toEqual({
      status: 200,
      text: 'allow administrator',
    });
    expect(await ask(internalUrl, 'user', { ...apiLogin(), password: 'wrong' }, credential())).toEqual({
      status: 200,
      text: 'deny',
    });
    const topic = { username: 'api', vhost: '/', resource: 'topic', name: 'amq.topic', permission: 'write' };
    expect((await ask(internalUrl, 'topic', { ...topic, routing_key: 'x' }, credential())).text).toBe('allow');
  });

  it('refuses a question without the credential before reading it: no password can be tested there', async () => {
    const { internalUrl } = api.api;
    const secret = broker.env.BROKER_AUTH_SECRET;
    const wrong = [
      undefined,
      '',
      basic(BROKER_AUTH_USER, 'x'.repeat(secret.length)),
      basic(BROKER_AUTH_USER, `${secret}x`),
      basic(BROKER_AUTH_USER, secret.slice(0, -1)),
      basic('guest', secret),
      basic(BROKER_AUTH_USER, ''),
      `Bearer ${secret}`,
      `Bearer ${ADMIN_TOKEN}`,
      basic(BROKER_AUTH_USER, ADMIN_TOKEN),
      credential().toLowerCase(),
    ];
    for (const authorization of wrong) {
      // The API's own login with its right password, and with a wrong one: the same refusal.
      const right = await ask(internalUrl, 'user', apiLogin(), authorization);
      const guess = await ask(internalUrl, 'user', { ...apiLogin(), password: 'guess' }, authorization);
      expect([authorization, right.status, right.text]).toEqual([authorization, 403, 'Forbidden']);
      expect(guess).toEqual(right);
      for (const route of ['vhost', 'resource', 'topic'])
        expect([
          authorization,
          route,
          (await ask(internalUrl, route, { username: 'api', vhost: '/' }, authorization)).status,
        ]).toEqual([authorization, route, 403]);
    }
  });

  it('is not on the public port, credential or not', async () => {
    const { url } = api.api;
    for (const authorization of [credential(), undefined])
      expect((await ask(url, 'user', apiLogin(), authorization)).status).toBe(404);
    expect((await raw(url, 'POST', '/internal/%62roker/user', 'username=api')).status).toBe(404);
  });

  it('refuses every question on an API without an external broker', async () => {
    const own = t();
    expect(own.config.broker).toBeNull();
    for (const authorization of [undefined, basic(BROKER_AUTH_USER, ''), basic(BROKER_AUTH_USER, 'undefined')])
      expect((await ask(own.api.internalUrl, 'user', apiLogin(), authorization)).status).toBe(403);
  });

  it('keeps an API on an external broker from starting without an internal port or the credential', async () => {
    const { API_INTERNAL_PORT: _port, ...noInternalPort } = broker.env;
    await expect(startTestApi(noInternalPort)).rejects.toThrow(/API_INTERNAL_PORT/);
    const { BROKER_AUTH_SECRET: _secret, ...noSecret } = broker.env;
    await expect(startTestApi(noSecret)).rejects.toThrow(/BROKER_AUTH_SECRET/);
    // It goes into the broker's URLs as it is: anything a URL's user part would change is refused.
    for (const secret of ['short', `${'a'.repeat(32)}:x`, `${'a'.repeat(32)}@x`, `${'a'.repeat(32)}%41`])
      expect(() => loadConfig({ ...broker.env, BROKER_AUTH_SECRET: secret })).toThrow(/BROKER_AUTH_SECRET/);
  });
});

describe("the broker's configuration", () => {
  it('puts the credential in every auth_http URL, as basic auth', () => {
    const secret = 'a-secret-of-the-right-kind-0123456789';
    const conf = localNodeConfig(
      { mqttPort: 1, wsPort: 2, managementPort: 3 },
      ['rabbit-1@localhost'],
      'http://127.0.0.1:4111',
      secret,
    );
    for (const name of ['user', 'vhost', 'resource', 'topic'])
      expect(conf).toContain(
        `\nauth_http.${name}_path = http://${BROKER_AUTH_USER}:${secret}@127.0.0.1:4111/internal/broker/${name}\n`,
      );
    expect(RABBITMQ_BROKER_AUTH_USER).toBe(BROKER_AUTH_USER);
    expect(() =>
      localNodeConfig({ mqttPort: 1, wsPort: 2, managementPort: 3 }, [], 'http://127.0.0.1:1', ''),
    ).toThrow();
  });

  it("has the deployment's file ask with the credential the compose file hands the broker and the instances", () => {
    const conf = readFileSync(RABBITMQ_CONF, 'utf8');
    for (const name of ['user', 'vhost', 'resource', 'topic'])
      expect(conf).toMatch(
        new RegExp(
          `^auth_http\\.${name}_path = http://${BROKER_AUTH_USER}:@BROKER_AUTH_SECRET@@gateway:4001/internal/broker/${name}$`,
          'm',
        ),
      );
  });
});
