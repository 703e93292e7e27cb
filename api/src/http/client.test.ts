import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { clientFrom, clientGroup, normalizeAddress, trustedProxies } from './client.js';

const GATEWAY = '10.0.0.5';
const gatewayOnly = trustedProxies([GATEWAY]);

describe('the client behind trusted proxies', () => {
  it('is the socket address when the peer is not a trusted proxy, whatever it forwards', () => {
    expect(clientFrom('203.0.113.9', '198.51.100.1', gatewayOnly)).toBe('203.0.113.9');
    expect(clientFrom('203.0.113.9', undefined, gatewayOnly)).toBe('203.0.113.9');
    expect(clientFrom('203.0.113.9', '198.51.100.1', trustedProxies([]))).toBe('203.0.113.9');
  });

  it('is the address the trusted gateway appended, not the entries the client wrote to its left', () => {
    // The client sent "X-Forwarded-For: 198.51.100.1, 198.51.100.2"; the gateway appended what it saw.
    expect(clientFrom(GATEWAY, '198.51.100.1, 198.51.100.2, 203.0.113.9', gatewayOnly)).toBe('203.0.113.9');
    expect(clientFrom(GATEWAY, '203.0.113.9', gatewayOnly)).toBe('203.0.113.9');
  });

  it('walks through a chain of two trusted proxies, and stops at the first untrusted hop', () => {
    const both = trustedProxies([GATEWAY, '192.168.7.0/24']);
    // browser -> load balancer 192.168.7.20 -> gateway -> API
    expect(clientFrom(GATEWAY, '203.0.113.9, 192.168.7.20', both)).toBe('203.0.113.9');
    expect(clientFrom(GATEWAY, '6.6.6.6, 203.0.113.9, 192.168.7.20', both)).toBe('203.0.113.9');
    // Only the gateway trusted: the load balancer is the client.
    expect(clientFrom(GATEWAY, '203.0.113.9, 192.168.7.20', gatewayOnly)).toBe('192.168.7.20');
  });

  it('is the socket address when a trusted proxy forwards nothing', () => {
    expect(clientFrom(GATEWAY, undefined, gatewayOnly)).toBe(GATEWAY);
    expect(clientFrom(GATEWAY, '', gatewayOnly)).toBe(GATEWAY);
  });

  it('is the furthest address when every hop is trusted (a request from inside the network)', () => {
    expect(clientFrom('127.0.0.1', '10.1.2.3, 127.0.0.1', trustedProxies(['loopback', 'private']))).toBe('10.1.2.3');
  });

  it('stops at an entry that is not an address: the proxy that passed it on is the client', () => {
    expect(clientFrom(GATEWAY, '203.0.113.9, unknown', gatewayOnly)).toBe(GATEWAY);
    expect(clientFrom(GATEWAY, 'garbage', trustedProxies([GATEWAY, 'private']))).toBe(GATEWAY);
  });

  it('compares IPv6 addresses and CIDRs, in any spelling', () => {
    const v6 = trustedProxies(['2001:db8::/32', '::1']);
    expect(clientFrom('2001:db8::1', '2001:db8:ffff::9, 2a00:1450::5', v6)).toBe('2a00:1450::5');
    expect(clientFrom('2001:DB8:0:0::1', '2a00:1450::5', v6)).toBe('2a00:1450::5');
    expect(clientFrom('::1', '[2001:db8::7], 2001:db8::8', v6)).toBe('2001:db8::7');
    expect(clientFrom('2a00:1450::5', '203.0.113.9', v6)).toBe('2a00:1450::5');
  });

  it('takes an IPv4 address mapped into IPv6 (a dual-stack socket) as the IPv4 address', () => {
    expect(clientFrom('::ffff:10.0.0.5', '::ffff:203.0.113.9', gatewayOnly)).toBe('203.0.113.9');
    expect(clientFrom('::ffff:127.0.0.1', '203.0.113.9', trustedProxies(['loopback']))).toBe('203.0.113.9');
    expect(clientFrom('::FFFF:203.0.113.9', '198.51.100.1', gatewayOnly)).toBe('203.0.113.9');
    expect(normalizeAddress('fe80::1%eth0')).toEqual({ address: 'fe80::1', family: 'ipv6' });
  });

  it('knows loopback, private and linklocal by name', () => {
    const named = trustedProxies(['loopback', 'private', 'linklocal']);
    for (const address of [
      '127.0.0.1',
      '127.3.4.5',
      '::1',
      '10.9.9.9',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      'fd12::1',
      '169.254.1.1',
      'fe80::1',
    ])
      expect([address, named.trusts(address)]).toEqual([address, true]);
    for (const address of ['8.8.8.8', '172.32.0.1', '11.0.0.1', '2001:db8::1', '::2'])
      expect([address, named.trusts(address)]).toEqual([address, false]);
  });

  it('refuses an entry that is not an address, a CIDR or a known name', () => {
    for (const entry of ['gateway', '10.0.0.0/33', '::1/129', '10.0.0.1/8/1', '300.1.1.1', '10.0.0.0/x'])
      expect(() => trustedProxies([entry])).toThrow(/API_TRUSTED_PROXIES/);
  });
});

describe('the configuration', () => {
  const base = { ADMIN_TOKEN: 'x', RUM_TOKEN_KEY: 'x'.repeat(32) };
  it('trusts nobody by default and reads API_TRUSTED_PROXIES', () => {
    expect(loadConfig(base).trustedProxies).toEqual([]);
    expect(loadConfig({ ...base, API_TRUSTED_PROXIES: ' 10.0.0.5, fd00::/8 ,' }).trustedProxies).toEqual([
      '10.0.0.5',
      'fd00::/8',
    ]);
    expect(() => loadConfig({ ...base, API_TRUSTED_PROXIES: 'api-gateway' })).toThrow(/API_TRUSTED_PROXIES/);
  });

  it('keeps API_TRUST_PROXY=true as trusting loopback and private peers', () => {
    expect(loadConfig({ ...base, API_TRUST_PROXY: 'true' }).trustedProxies).toEqual(['loopback', 'private']);
    expect(loadConfig({ ...base, API_TRUST_PROXY: 'true', API_TRUSTED_PROXIES: '10.0.0.5' }).trustedProxies).toEqual([
      '10.0.0.5',
    ]);
  });
});

describe('the group a per-client limit counts', () => {
  it('is an IPv4 address itself, and an IPv6 address its /64, however it is written', () => {
    expect(clientGroup('203.0.113.9')).toBe('203.0.113.9');
    expect(clientGroup('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientGroup('2001:db8:1:2::a')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:0DB8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('[2001:db8:1:2::b%eth0]')).toBe('2001:db8:1:2::/64');
    expect(clientGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientGroup('::1')).toBe('0:0:0:0::/64');
    expect(clientGroup('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientGroup('2001:db8:1:3::a')).not.toBe(clientGroup('2001:db8:1:2::a'));
    expect(clientGroup('unknown')).toBe('unknown');
  });
});
