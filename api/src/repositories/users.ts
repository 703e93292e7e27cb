import type { ChatWindowEntry, OwnProfile, PublicProfile, Role, UserInfo } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { SessionUser } from '../http/env.js';
import { nowIso } from './sql.js';
import type { FileUrls } from './urls.js';

/** A user as other people see them: enough for a chat window, a post's author, a search hit. */
export interface UserRef {
  id: number;
  profileName: string;
  username: string;
  profilePicturePath: string | null;
}

interface UserRow {
  id: number;
  profile_name: string;
  username: string;
  profile_picture: string | null;
}

const USER_COLUMNS = 'id, profile_name, username, profile_picture';
const toRef = (row: UserRow): UserRef => ({
  id: row.id,
  profileName: row.profile_name,
  username: row.username,
  profilePicturePath: row.profile_picture,
});

/** The roles a user chooses themselves; EVENT_ORGANIZER is granted by the business. */
export type ChosenRole = Extract<Role, 'DRIVER' | 'MEDIA'>;

export type UsersRepository = ReturnType<typeof usersRepository>;

/** Accounts: log in and sign up lookups, profiles, roles, and the contract shapes of a user. */
export function usersRepository(db: Db, urls: FileUrls) {
  const rolesOf = (userId: number): Role[] =>
    (db.prepare('SELECT role FROM user_roles WHERE user_id = ? ORDER BY role').all(userId) as { role: Role }[]).map(
      (r) => r.role,
    );

  const chatEntry = (user: UserRef): ChatWindowEntry => ({
    profileName: user.profileName,
    username: user.username,
    profilePicture: urls.media(user.profilePicturePath),
  });

  const info = (user: Omit<UserRef, 'id'> & { roles: Role[] }): UserInfo => ({
    roles: user.roles,
    profileName: user.profileName,
    profilePicture: urls.media(user.profilePicturePath),
    username: user.username,
  });

  return {
    rolesOf,
    chatEntry,
    info,

    byProfileName(profileName: string): UserRef | undefined {
      const row = db.prepare(`SELECT ${USER_COLUMNS} FROM users WHERE profile_name = ?`).get(profileName) as
        UserRow | undefined;
      return row && toRef(row);
    },

    profileNameOf(userId: number): string | undefined {
      return (
        db.prepare('SELECT profile_name FROM users WHERE id = ?').get(userId) as { profile_name: string } | undefined
      )?.profile_name;
    },

    /** An account by email or profile name (either logs in), with its password hash. */
    forLogin(login: string): (UserRef & { passwordHash: string }) | undefined {
      const row = db
        .prepare(`SELECT ${USER_COLUMNS}, password_hash FROM users WHERE email = ? OR profile_name = ?`)
        .get(login.toLowerCase(), login.toLowerCase()) as (UserRow & { password_hash: string }) | undefined;
      return row && { ...toRef(row), passwordHash: row.password_hash };
    },

    /** Which of a new account's unique fields another account already has, if any. */
    takenField(profileName: string, email: string): 'profileName' | 'email' | null {
      const taken = db
        .prepare('SELECT profile_name FROM users WHERE profile_name = ? OR email = ?')
        .get(profileName, email.toLowerCase()) as { profile_name: string } | undefined;
      if (!taken) return null;
      return taken.profile_name === profileName ? 'profileName' : 'email';
    },

    create(user: { profileName: string; username: string; email: string; passwordHash: string }): number {
      return Number(
        db
          .prepare(
            "INSERT INTO users (profile_name, username, email, password_hash, profile_picture, bio, created_at) VALUES (?, ?, ?, ?, NULL, '', ?)",
          )
          .run(user.profileName, user.username, user.email.toLowerCase(), user.passwordHash, nowIso()).lastInsertRowid,
      );
    },

    ownProfile(user: SessionUser): OwnProfile {
      const row = db
        .prepare('SELECT username, email, bio, profile_picture, created_at FROM users WHERE id = ?')
        .get(user.id) as {
        username: string;
        email: string;
        bio: string;
        profile_picture: string | null;
        created_at: string;
      };
      return {
        ...info({ ...user, username: row.username, profilePicturePath: row.profile_picture }),
        email: row.email,
        bio: row.bio,
        createdAt: row.created_at,
      };
    },

    emailTakenByOther(email: string, userId: number): boolean {
      return (
        db.prepare('SELECT id FROM users WHERE email = ? AND id != ?').get(email.toLowerCase(), userId) !== undefined
      );
    },

    /** Changes the given fields; undefined ones keep their value. */
    updateProfile(userId: number, change: { username?: string; email?: string; bio?: string }): void {
      db.prepare(
        'UPDATE users SET username = COALESCE(?, username), email = COALESCE(?, email), bio = COALESCE(?, bio) WHERE id = ?',
      ).run(change.username ?? null, change.email?.toLowerCase() ?? null, change.bio ?? null, userId);
    },

    /** A creator's public page header; their items come from the content repository. */
    publicProfile(user: UserRef): PublicProfile {
      const extra = db.prepare('SELECT bio, created_at FROM users WHERE id = ?').get(user.id) as {
        bio: string;
        created_at: string;
      };
      return {
        profileName: user.profileName,
        username: user.username,
        profilePicture: urls.media(user.profilePicturePath),
        bio: extra.bio,
        roles: rolesOf(user.id),
        memberSince: extra.created_at,
      };
    },

    /** Replaces the roles a user chooses, keeping the ones the business grants. */
    setChosenRoles(userId: number, chosen: ChosenRole[]): void {
      db.transaction(() => {
        db.prepare("DELETE FROM user_roles WHERE user_id = ? AND role IN ('DRIVER', 'MEDIA')").run(userId);
        const insert = db.prepare('INSERT INTO user_roles (user_id, role) VALUES (?, ?)');
        for (const role of chosen) insert.run(userId, role);
      })();
    },

    /** People whose username or profile name contains the LIKE pattern. */
    search(likePattern: string, limit: number): UserRef[] {
      return (
        db
          .prepare(
            `SELECT ${USER_COLUMNS} FROM users WHERE username LIKE ? ESCAPE '\\' OR profile_name LIKE ? ESCAPE '\\' ORDER BY username LIMIT ?`,
          )
          .all(likePattern, likePattern, limit) as UserRow[]
      ).map(toRef);
    },
  };
}
