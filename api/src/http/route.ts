import type { Context, Hono } from 'hono';
import { z } from 'zod';
import {
  API_CALLS,
  PROFILE_NAME_HINT,
  PROFILE_NAME_PATTERN,
  type ApiRequest,
  type ApiResponse,
  type CallName,
} from '@marketplace/shared/contract';
import type { AppEnv, SessionUser } from './env.js';
import { HttpError, notLoggedIn } from './errors.js';

export interface RouteContext {
  c: Context<AppEnv>;
  /** The signed-in user, or null for a visitor. */
  user: SessionUser | null;
}

export interface AuthedRouteContext extends RouteContext {
  user: SessionUser;
}

type Handler<K extends CallName, Ctx> = (input: ApiRequest<K>, ctx: Ctx) => ApiResponse<K> | Promise<ApiResponse<K>>;

/**
 * Registers the handler of one contract call at the method and path the shared table names,
 * decoding the body in the encoding the table names (and only that one), validating it with
 * a schema whose output type is the contract's request type, and answering the contract's
 * response type. A call that needs a user answers 401 to a visitor.
 */
export interface Router {
  visitor<K extends CallName>(name: K, schema: z.ZodType<ApiRequest<K>>, handler: Handler<K, RouteContext>): void;
  user<K extends CallName>(name: K, schema: z.ZodType<ApiRequest<K>>, handler: Handler<K, AuthedRouteContext>): void;
}

export function createRouter(app: Hono<AppEnv>): Router {
  const register = <K extends CallName>(
    name: K,
    schema: z.ZodType<ApiRequest<K>>,
    needsUser: boolean,
    handler: (input: ApiRequest<K>, ctx: RouteContext) => ApiResponse<K> | Promise<ApiResponse<K>>,
  ) => {
    const spec = API_CALLS[name];
    app.on(spec.method, spec.path, async (c) => {
      const user = c.get('user');
      if (needsUser && !user) throw notLoggedIn();
      const raw = await readInput(c, spec.encoding);
      const parsed = schema.safeParse(raw);
      if (!parsed.success) throw validationError(parsed.error, raw);
      return c.json(await handler(parsed.data, { c, user }));
    });
  };
  return {
    visitor: (name, schema, handler) => register(name, schema, false, handler),
    user: (name, schema, handler) =>
      register(name, schema, true, (input, ctx) => handler(input, { ...ctx, user: ctx.user as SessionUser })),
  };
}

const BODY_TYPES = {
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
} as const;

async function readInput(
  c: Context<AppEnv>,
  encoding: (typeof API_CALLS)[CallName]['encoding'],
): Promise<Record<string, unknown>> {
  const params = c.req.param() as Record<string, string>;
  if (encoding === 'none') return { ...params };
  if (encoding === 'query') return { ...c.req.query(), ...params };
  const expected = BODY_TYPES[encoding];
  const contentType = (c.req.header('content-type') ?? '').toLowerCase();
  if (!contentType.startsWith(expected)) {
    throw new HttpError(415, `This call takes a ${expected} body`);
  }
  let body: Record<string, string | File | (string | File)[]>;
  try {
    body = await c.req.parseBody({ all: true });
  } catch {
    throw new HttpError(400, `Malformed ${expected} body`);
  }
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string') throw new HttpError(400, `Field '${key}' must be a single text value`, key);
  }
  return { ...body, ...params };
}

function validationError(error: z.ZodError, raw: Record<string, unknown>): HttpError {
  const issue = error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  if (!issue) return new HttpError(400, 'Invalid request');
  if (issue.path.length === 1 && raw[field] === undefined) {
    return new HttpError(400, `Missing field '${field}'`, field);
  }
  return new HttpError(400, field ? `Invalid field '${field}': ${issue.message}` : issue.message, field || undefined);
}

/** Field decoders shared by the routes: forms and queries carry text, the contract carries values. */
// Text is stored as given; a NUL character is never meant, and PostgreSQL cannot store one.
export const noNul = (text: z.ZodString) =>
  text.refine((value) => !value.includes('\u0000'), 'must not contain a NUL character');

/** The largest id a row is numbered with: PostgreSQL's `integer`, which the tables' ids are. */
const MAX_ROW_ID = 2_147_483_647;

export const fields = {
  text: (max: number) =>
    noNul(z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`)),
  optionalText: (max: number) => noNul(z.string().trim().max(max, `must be at most ${max} characters`)).optional(),
  // Row ids are the databases' `integer` (PostgreSQL's is 32-bit): a larger number names no row,
  // and PostgreSQL refuses to compare the column with it rather than finding nothing.
  id: () =>
    z
      .string()
      .regex(/^\d{1,10}$/, 'must be a positive whole number')
      .transform(Number)
      .refine((n) => n <= MAX_ROW_ID, 'must be a positive whole number'),
  pageNo: () =>
    z
      .string()
      .regex(/^\d{1,6}$/, 'must be a whole number from 0')
      .transform(Number)
      .optional(),
  limit: () =>
    z
      .string()
      .regex(/^\d{1,3}$/, 'must be a whole number from 1 to 50')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 50, 'must be a whole number from 1 to 50')
      .optional(),
  boolean: () => z.enum(['true', 'false'], { message: "must be 'true' or 'false'" }).transform((v) => v === 'true'),
  profileName: () => z.string().regex(PROFILE_NAME_PATTERN, `must be ${PROFILE_NAME_HINT}`),
  email: () => z.string().trim().max(254, 'is too long').email('Email is invalid'),
};

export const noFields = z.object({});
