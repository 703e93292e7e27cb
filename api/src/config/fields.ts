import { z } from 'zod';

/**
 * The kinds of environment variable the configuration reads (env.ts), each a zod schema from the
 * variable's text (or its absence) to its value, its default included. A field's issue names no
 * variable: the message is read after the variable's name (`API_PORT must be ...`, see
 * parseConfig).
 */

/** A rule between variables, or on a value derived from several, broken: its message is whole. */
export class ConfigRefused extends Error {}

/** Text whose empty value means unset (`NAME=` in a shell, a blank in a compose file); unset: `fallback`. */
export const setting = <F extends string | null>(fallback: F, doc: string) =>
  z
    .string()
    .optional()
    .transform((value): string | F => value || fallback)
    .describe(doc);

/** Text where '' is a value of its own (an empty list, say); unset: `fallback` (null: derived from another). */
export const text = <F extends string | null>(fallback: F, doc: string) =>
  z
    .string()
    .optional()
    .transform((value): string | F => value ?? fallback)
    .describe(doc);

/**
 * A whole number, 0 or more (milliseconds, bytes, counts); unset or '': `fallback` (null: derived
 * from another variable). `floor` raises a smaller one to the least that works.
 */
export const count = <F extends number | null>(fallback: F, doc: string, floor = 0) =>
  z
    .string()
    .optional()
    .transform((value, ctx): number | F => {
      if (value === undefined || value === '') return fallback;
      const n = Number(value);
      if (Number.isInteger(n) && n >= 0) return Math.max(floor, n);
      ctx.addIssue({ code: 'custom', message: `must be a non-negative integer, got '${value}'` });
      return z.NEVER;
    })
    .describe(doc);

const quoted = (values: readonly string[]) =>
  values
    .map((v) => `'${v}'`)
    .join(', ')
    .replace(/, ([^,]*)$/, ' or $1');

/** One of `values`; unset or '': `fallback` (null: decided from other variables). */
export const oneOf = <const V extends string, F extends V | null>(values: readonly V[], fallback: F, doc: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx): V | F => {
      if (value === undefined || value === '') return fallback;
      if ((values as readonly string[]).includes(value)) return value as V;
      ctx.addIssue({ code: 'custom', message: `must be ${quoted(values)}, got '${value}'` });
      return z.NEVER;
    })
    .describe(doc);

/** A switch: true exactly when the variable is `on` (so unset is false). */
export const when = (on: string, doc: string) =>
  z
    .string()
    .optional()
    .transform((value) => value === on)
    .describe(doc);

/** A switch: true unless the variable is `off` (so unset is true). */
export const unless = (off: string, doc: string) =>
  z
    .string()
    .optional()
    .transform((value) => value !== off)
    .describe(doc);

/** A secret of `minLength` characters at least; unset or '': null (kept, derived, or one of the process's own). */
export const secret = (minLength: number, doc: string, tooShort = `must be ${minLength} characters at least`) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      if (value.length >= minLength) return value;
      ctx.addIssue({ code: 'custom', message: tooShort });
      return z.NEVER;
    })
    .describe(doc);

/** Text matching `pattern` when set ('' is unset: null); `refused` says what it must be, given the value. */
export const matching = (pattern: RegExp, refused: (value: string) => string, doc: string) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      if (pattern.test(value)) return value;
      ctx.addIssue({ code: 'custom', message: refused(value) });
      return z.NEVER;
    })
    .describe(doc);

/**
 * A comma-separated list, each entry trimmed, blanks dropped, each matching `check.pattern` when
 * given; unset: `fallback` ('' is an empty list).
 */
export const list = (fallback: string, doc: string, check?: { pattern: RegExp; refused: (entry: string) => string }) =>
  z
    .string()
    .optional()
    .transform((value, ctx) => {
      const entries = (value ?? fallback)
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      const wrong = check && entries.find((entry) => !check.pattern.test(entry));
      if (!check || wrong === undefined) return entries;
      ctx.addIssue({ code: 'custom', message: check.refused(wrong) });
      return z.NEVER;
    })
    .describe(doc);

/** Parses `env` with `schema`, or throws one error naming each refused variable (`NAME message`). */
export function parseConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  throw new Error(
    result.error.issues
      .map((issue) => (issue.path.length ? `${issue.path.join('.')} ${issue.message}` : issue.message))
      .join('\n'),
  );
}

/** Runs `build` as a schema's last step: a ConfigRefused it throws becomes the schema's issue. */
export const refusing =
  <T, R>(build: (value: T) => R) =>
  (value: T, ctx: z.RefinementCtx): R => {
    try {
      return build(value);
    } catch (error) {
      if (!(error instanceof ConfigRefused)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  };
