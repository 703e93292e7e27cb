import { z } from 'zod';
import {
  BEACON_ERROR_KINDS,
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

/** The beacon's schema (shared/src/platform/beacon.ts), strict: unknown fields are refused, not kept. */
export const beaconSchema: z.ZodType<Beacon> = z
  .object({
    load: z.uuid(),
    versions: z.partialRecord(remote, version),
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
