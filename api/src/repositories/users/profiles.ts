import type { Role } from '@marketplace/shared/contract';
import type { Db } from '../../db/database.js';
import { likeIgnoringCase } from '../sql.js';
import { toRef, USER_COLUMNS, type UserRef } from './ref.js';

/** What a user's own profile page shows of them, as stored. */
export interface OwnProfileRecord {
  username: string;
  email: string;
  bio: string;
  profilePicturePath: string | null;
  createdAt: string;
}

/** What a creator's public page shows besides their name and picture. */
export interface ProfileDetails {
  bio: string;
  roles: Role[];
  createdAt: string;
}

/** Profiles: a user found by name, their own profile and its changes, and people search. */
export function profilesRepository(db: Db, rolesOf: (userId: number) => Promise<Role[]>) {
  return {
    async byProfileName(profileName: string): Promise<UserRef | undefined> {
      const row = await db
        .selectFrom('users')
        .select(USER_COLUMNS)
        .where('profile_name', '=', profileName)
        .executeTakeFirst();
      return row && toRef(row);
    },

    async profileNameOf(userId: number): Promise<string | undefined> {
      const row = await db.selectFrom('users').select('profile_name').where('id', '=', userId).executeTakeFirst();
      return row?.profile_name;
    },

    async ownProfile(userId: number): Promise<OwnProfileRecord> {
      const row = await db
        .selectFrom('users')
        .select(['username', 'email', 'bio', 'profile_picture', 'created_at'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return {
        username: row.username,
        email: row.email,
        bio: row.bio,
        profilePicturePath: row.profile_picture,
        createdAt: row.created_at,
      };
    },

    async emailTakenByOther(email: string, userId: number): Promise<boolean> {
      const row = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email.toLowerCase())
        .where('id', '!=', userId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Changes the given fields; undefined ones keep their value. */
    async updateProfile(userId: number, change: { username?: string; email?: string; bio?: string }): Promise<void> {
      const set = {
        ...(change.username !== undefined && { username: change.username }),
        ...(change.email !== undefined && { email: change.email.toLowerCase() }),
        ...(change.bio !== undefined && { bio: change.bio }),
      };
      if (Object.keys(set).length === 0) return;
      await db.updateTable('users').set(set).where('id', '=', userId).execute();
    },

    /** A creator's public page header beyond their name; their items come from the content repository. */
    async profileDetails(userId: number): Promise<ProfileDetails> {
      const row = await db
        .selectFrom('users')
        .select(['bio', 'created_at'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      return { bio: row.bio, roles: await rolesOf(userId), createdAt: row.created_at };
    },

    /** People whose username or profile name contains the LIKE pattern (any case). */
    async search(likePattern: string, limit: number): Promise<UserRef[]> {
      const rows = await db
        .selectFrom('users')
        .select(USER_COLUMNS)
        .where((eb) =>
          eb.or([
            likeIgnoringCase(eb.ref('username'), likePattern),
            likeIgnoringCase(eb.ref('profile_name'), likePattern),
          ]),
        )
        .orderBy('username')
        .limit(limit)
        .execute();
      return rows.map(toRef);
    },
  };
}
