import type { Context } from 'hono';
import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * Named ranges API_TRUSTED_PROXIES accepts besides addresses and CIDRs: loopback (the gateway on
 * the same machine), private (a gateway or load balancer inside the deployment's network: RFC 1918
 * and IPv6 unique local), linklocal.
 */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
};

/**
 * One address as compared: an IPv4 address a dual-stack socket reports as IPv6 (::ffff:a.b.c.d)
 * is the IPv4 address, and an IPv6 zone (%eth0) is dropped. Null when it is not an address.
 */
export function normalizeAddress(value: string): { address: string; family: 'ipv4' | 'ipv6' } | null {
  let address = value.trim();
  if (address.startsWith('[') && address.endsWith(']')) address = address.slice(1, -1);
  address = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) address = mapped[1];
  const version = isIP(address);
  if (version === 4) return { address, family: 'ipv4' };
  if (version === 6) return { address: address.toLowerCase(), family: 'ipv6' };
  return null;
}

/** The proxies whose X-Forwarded-For entries are believed. */
export interface TrustedProxies {
  trusts(address: string): boolean;
}

/**
 * Parses API_TRUSTED_PROXIES' entries (addresses, CIDRs, loopback/private/linklocal); throws on
 * anything else, so a typo fails the start instead of trusting nobody (or everybody).
 */
export function trustedProxies(entries: readonly string[]): TrustedProxies {
  const list = new BlockList();
  const add = (entry: string) => {
    const [base = '', bits, extra] = entry.split('/');
    const parsed = normalizeAddress(base);
    const prefix = Number(bits);
    const max = parsed?.family === 'ipv4' ? 32 : 128;
    if (
      !parsed ||
      extra !== undefined ||
      (bits !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max))
    )
      throw new Error(
        `API_TRUSTED_PROXIES: '${entry}' is not an address, a CIDR or one of ${Object.keys(NAMED_RANGES).join(', ')}`,
      );
    if (bits === undefined) list.addAddress(parsed.address, parsed.family);
    else list.addSubnet(parsed.address, prefix, parsed.family);
  };
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    for (const range of NAMED_RANGES[entry] ?? [entry]) add(range);
  }
  return {
    trusts(value) {
      const parsed = normalizeAddress(value);
      return parsed !== null && list.check(parsed.address, parsed.family);
    },
  };
}

/**
 * The client of a request: walking from the socket's address leftwards through X-Forwarded-For,
 * the first address not a trusted proxy. Each trusted proxy vouches for the entry to its left
 * (the address it received the request from); entries further left were written by whoever
 * sent them and are never believed past an untrusted hop. An entry that is not an address stops
 * the walk at the proxy that passed it on.
 */
export function clientFrom(socketAddress: string, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  let client = normalizeAddress(socketAddress)?.address ?? socketAddress;
  if (!trusted.trusts(client) || !forwardedFor) return client;
  const chain = forwardedFor.split(',');
  for (let i = chain.length - 1; i >= 0; i--) {
    const hop = normalizeAddress(chain[i] ?? '');
    if (!hop) return client;
    client = hop.address;
    if (!trusted.trusts(client)) return client;
  }
  // Every hop is trusted: the furthest one is the client (a request from inside the network).
  return client;
}

const compiled = new WeakMap<readonly string[], TrustedProxies>();

/** Who sent the request, for per-client limits (see clientFrom). */
// The setting's shape, not ApiConfig: config.ts reads its proxies with this module, so importing it back would make a loop.
export function clientAddress(c: Context, config: { trustedProxies: readonly string[] }): string {
  let trusted = compiled.get(config.trustedProxies);
  if (!trusted) {
    trusted = trustedProxies(config.trustedProxies);
    compiled.set(config.trustedProxies, trusted);
  }
  return clientFrom(getConnInfo(c).remote.address ?? 'unknown', c.req.header('x-forwarded-for'), trusted);
}

/**
 * What a per-client limit counts a client under: an IPv4 address as it is, an IPv6 address by
 * its /64 (`2001:db8:1:2::/64`). A subscriber is given a /64 or more and picks any address in it
 * at will, so counting single IPv6 addresses would give one client 2^64 shares of a limit.
 */
export function clientGroup(client: string): string {
  const parsed = normalizeAddress(client);
  if (!parsed) return client;
  if (parsed.family === 'ipv4') return parsed.address;
  const [head = '', tail] = parsed.address.split('::');
  const words = (part: string) =>
    part === '' ? [] : part.split(':').flatMap((word) => (word.includes('.') ? ['0', '0'] : [word]));
  const front = words(head);
  const back = tail === undefined ? [] : words(tail);
  const all = [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back];
  return `${all
    .slice(0, 4)
    .map((word) => parseInt(word, 16).toString(16))
    .join(':')}::/64`;
}
