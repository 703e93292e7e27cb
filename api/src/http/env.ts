import type { Role } from '@marketplace/shared/contract';

export interface SessionUser {
  id: number;
  profileName: string;
  username: string;
  profilePicturePath: string | null;
  roles: Role[];
  /** The session's key (repositories/sessions.ts sessionKeyOf), never its cookie's token. */
  token: string;
}

/** Hono context variables set by the session middleware. */
export interface AppEnv {
  Variables: {
    user: SessionUser | null;
  };
}
