import { z } from 'zod';
import { verifyRumToken, type RumTokenClaims } from '@marketplace/shared/node/rum-token';
import {
  BEACON_ERROR_KINDS,
  BEACON_FRAME_CHARS,
  BEACON_MAX_ERRORS,
  BEACON_MESSAGE_CHARS,
  REMOTE_NAMES,
  type Beacon,
  type RemoteName,
} from '@marketplace/shared/platform';

const remote = z.enum(REMOTE_NAMES as [RemoteName, ...RemoteName[]]);
const owner = z.union([remote, z.literal('shell')]);
/** A release store version (12 hex digits) or a build that did not come from the store. */
const version = z.string().regex(/^([0-9a-f]{12}|unreleased)$/, 'a version is 12 hex digits or "unreleased"');
/** Generous upper bounds: a value past them is a broken or hostile sender, not a slow page. */
const millis = z.number().finite().min(0).max(600_000);
const vital = (value: z.ZodNumber) => z.object({ value, owner }).strict();
/**
 * Where an error was thrown (BeaconError['frame']): a path, its line and column. No origin, query
 * or fragment: the shell leaves them out, so a frame with one is not its, and what a query could
 * carry is never kept.
 */
const frame = z
  .string()
  .max(BEACON_FRAME_CHARS)
  .regex(/^(?!.*:\/\/)[^\s?#]+:\d+(?::\d+)?$/, 'a frame is a path, its line and column');

/** The beacon's schema (shared/src/platform/beacon.ts), strict: unknown fields are refused, not kept. */
export const beaconSchema: z.ZodType<Beacon> = z
  .object({
    load: z.uuid(),
    // Checked against the key after parsing (checkToken), so that a missing one is a 403 with its reason.
    token: z.string().max(4096).optional(),
    final: z.boolean().optional(),
    versions: z.partialRecord(remote, version),
    render: z.uuid().optional(),
    vitals: z
      .object({
        LCP: vital(millis).optional(),
        INP: vital(millis).optional(),
        CLS: vital(z.number().finite().min(0).max(100)).optional(),
        TTFB: vital(millis).optional(),
      })
      .strict(),
    errors: z
      .array(
        z
          .object({
            owner,
            kind: z.enum(BEACON_ERROR_KINDS as [string, ...string[]]),
            message: z.string().max(BEACON_MESSAGE_CHARS),
            frame: frame.optional(),
          })
          .strict(),
      )
      .max(BEACON_MAX_ERRORS),
  })
  .strict() as z.ZodType<Beacon>;

/** Parses a beacon's body; the reason names the first problem. */
export function parseBeacon(text: string): { beacon: Beacon } | { problem: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: 'A beacon is a JSON object' };
  }
  const parsed = beaconSchema.safeParse(json);
  if (parsed.success) return { beacon: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `Invalid beacon: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}` };
}

/**
 * What a beacon's token vouches for, or why it does not let the beacon count: the token must be
 * one the page server signed under `key` (shared/node/rum-token.mjs) and not expired, for this
 * beacon's page load, and sign every version the beacon names for its remote. What the beacon
 * may not claim is refused whole, not trimmed: an honest page leaves out what its token does not
 * sign (shell/src/telemetry/collector.ts), so a beacon that does not is not the page's.
 */
export function checkToken(
  beacon: Beacon,
  key: string,
  now = Date.now(),
): { problem: string } | { claims: RumTokenClaims } {
  if (!beacon.token) return { problem: "A beacon needs its page load's token (from the page server)" };
  const verified = verifyRumToken(key, beacon.token, now);
  if ('problem' in verified)
    return {
      problem: verified.problem === 'expired' ? "The beacon's token has expired" : "The beacon's token is not valid",
    };
  const { claims } = verified;
  if (claims.load !== beacon.load) return { problem: 'The beacon names another page load than its token' };
  const unsigned = unsignedVersions(beacon, claims);
  if (unsigned.length > 0) return { problem: `The beacon's token does not sign ${unsigned.join(', ')}` };
  return { claims };
}

/** `remote@version` for each version the beacon names and its token does not sign. */
function unsignedVersions(beacon: Beacon, claims: RumTokenClaims): string[] {
  return Object.entries(beacon.versions)
    .filter(([name, v]) => !claims.versions[name]?.includes(v))
    .map(([name, v]) => `${name}@${v}`);
}
