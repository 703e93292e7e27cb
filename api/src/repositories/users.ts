import type {
  ChatWindowEntry,
  MailPreferences,
  OwnProfile,
  PublicProfile,
  Role,
  UserInfo,
} from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import type { SessionUser } from '../http/env.js';
import { inTransaction, likeIgnoringCase, nowIso, onPostgres } from './sql.js';
import type { FileUrls } from './urls.js';
import { contentTypeOf } from '../files/paths.js';

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

const USER_COLUMNS = ['id', 'profile_name', 'username', 'profile_picture'] as const;
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
  const rolesOf = async (userId: number): Promise<Role[]> => {
    const rows = await db
      .selectFrom('user_roles')
      .select('role')
      .where('user_id', '=', userId)
      .orderBy('role')
      .execute();
    return rows.map((r) => r.role);
  };

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

    /** The account with this email (compared lower-cased, as stored), for a password reset. */
    async idByEmail(email: string): Promise<number | undefined> {
      const row = await db.selectFrom('users').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
      return row?.id;
    },

    async passwordHashOf(userId: number): Promise<string | undefined> {
      const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
      return row?.password_hash;
    },

    async setPasswordHash(userId: number, passwordHash: string): Promise<void> {
      await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    },

    /** Where a user's mail goes, their name in it, and which optional mails they want. */
    async mailTarget(
      userId: number,
    ): Promise<{ email: string; username: string; preferences: MailPreferences } | undefined> {
      const row = await db
        .selectFrom('users')
        .select(['email', 'username', 'mail_sign_in', 'mail_receipts', 'mail_order_updates'])
        .where('id', '=', userId)
        .executeTakeFirst();
      return (
        row && {
          email: row.email,
          username: row.username,
          preferences: {
            signIn: row.mail_sign_in === 1,
            receipts: row.mail_receipts === 1,
            orderUpdates: row.mail_order_updates === 1,
          },
        }
      );
    },

    /**
     * Switches the kinds of mail `change` names, and only those (one statement: two changes at once
     * to different kinds both stay); answers every preference as saved (undefined: no such user).
     */
    async setMailPreferences(userId: number, change: Partial<MailPreferences>): Promise<MailPreferences | undefined> {
      const flag = (on: boolean | undefined) => (on === undefined ? undefined : on ? 1 : 0);
      const set = Object.fromEntries(
        Object.entries({
          mail_sign_in: flag(change.signIn),
          mail_receipts: flag(change.receipts),
          mail_order_updates: flag(change.orderUpdates),
        }).filter(([, value]) => value !== undefined),
      );
      const columns = ['mail_sign_in', 'mail_receipts', 'mail_order_updates'] as const;
      const row =
        Object.keys(set).length === 0
          ? await db.selectFrom('users').select(columns).where('id', '=', userId).executeTakeFirst()
          : await db.updateTable('users').set(set).where('id', '=', userId).returning(columns).executeTakeFirst();
      return (
        row && {
          signIn: row.mail_sign_in === 1,
          receipts: row.mail_receipts === 1,
          orderUpdates: row.mail_order_updates === 1,
        }
      );
    },

    /**
     * The user's password hash, read in `db`'s transaction so that no change to it commits before
     * that transaction does: on PostgreSQL the row is locked (FOR SHARE), so a reset or change under
     * way is waited for and its new hash read; SQLite's transactions run one at a time already.
     */
    async passwordHashHeld(userId: number): Promise<string | undefined> {
      const query = db.selectFrom('users').select('password_hash').where('id', '=', userId);
      const row = await (onPostgres(db) ? query.forShare() : query).executeTakeFirst();
      return row?.password_hash;
    },

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

    /** An account by email or profile name (either logs in), with its password hash. */
    async forLogin(login: string): Promise<(UserRef & { passwordHash: string }) | undefined> {
      const lower = login.toLowerCase();
      const row = await db
        .selectFrom('users')
        .select([...USER_COLUMNS, 'password_hash'])
        .where((eb) => eb.or([eb('email', '=', lower), eb('profile_name', '=', lower)]))
        .executeTakeFirst();
      return row && { ...toRef(row), passwordHash: row.password_hash };
    },

    /** Which of a new account's unique fields another account already has, if any. */
    async takenField(profileName: string, email: string): Promise<'profileName' | 'email' | null> {
      const taken = await db
        .selectFrom('users')
        .select('profile_name')
        .where((eb) => eb.or([eb('profile_name', '=', profileName), eb('email', '=', email.toLowerCase())]))
        .executeTakeFirst();
      if (!taken) return null;
      return taken.profile_name === profileName ? 'profileName' : 'email';
    },

    /** The new account's id; throws a unique violation (sql.ts) when another took its name or email first. */
    async create(user: {
      profileName: string;
      username: string;
      email: string;
      passwordHash: string;
    }): Promise<number> {
      const { id } = await db
        .insertInto('users')
        .values({
          profile_name: user.profileName,
          username: user.username,
          email: user.email.toLowerCase(),
          password_hash: user.passwordHash,
          profile_picture: null,
          bio: '',
          created_at: nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    async ownProfile(user: SessionUser): Promise<OwnProfile> {
      const row = await db
        .selectFrom('users')
        .select(['username', 'email', 'bio', 'profile_picture', 'created_at'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      return {
        ...info({ ...user, username: row.username, profilePicturePath: row.profile_picture }),
        email: row.email,
        bio: row.bio,
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

    /** A profile picture's source waiting for its media job; undefined once it is made (or without one). */
    async avatarSource(profileName: string): Promise<{ key: string; contentType: string } | undefined> {
      const row = await db
        .selectFrom('users')
        .select('profile_picture_source')
        .where('profile_name', '=', profileName)
        .executeTakeFirst();
      // The server named the source's key (the seed): its extension is the type it wrote.
      const key = row?.profile_picture_source;
      return key ? { key, contentType: contentTypeOf(key) } : undefined;
    },

    /**
     * Serves what the media job made of the picture from `source` (`shownKey`), once: false when
     * another worker did first or the source changed meanwhile.
     */
    async setAvatar(profileName: string, source: string, shownKey: string): Promise<boolean> {
      const result = await db
        .updateTable('users')
        .set({ profile_picture: shownKey, profile_picture_source: null })
        .where('profile_name', '=', profileName)
        .where('profile_picture_source', '=', source)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** The profile names whose picture waits for its media job. */
    async avatarsWaiting(): Promise<string[]> {
      const rows = await db
        .selectFrom('users')
        .select('profile_name')
        .where('profile_picture_source', 'is not', null)
        .execute();
      return rows.map((r) => r.profile_name);
    },

    /** A creator's public page header; their items come from the content repository. */
    async publicProfile(user: UserRef): Promise<PublicProfile> {
      const extra = await db
        .selectFrom('users')
        .select(['bio', 'created_at'])
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      return {
        profileName: user.profileName,
        username: user.username,
        profilePicture: urls.media(user.profilePicturePath),
        bio: extra.bio,
        roles: await rolesOf(user.id),
        memberSince: extra.created_at,
      };
    },

    /** Replaces the roles a user chooses, keeping the ones the business grants. */
    async setChosenRoles(userId: number, chosen: ChosenRole[]): Promise<void> {
      await inTransaction(db, async (trx) => {
        // The user's row held first: concurrent changes of one user's roles take turns (the last
        // one wins) instead of both deleting nothing and then inserting the same key (a 500).
        await trx
          .updateTable('users')
          .set((eb) => ({ id: eb.ref('id') }))
          .where('id', '=', userId)
          .execute();
        await trx
          .deleteFrom('user_roles')
          .where('user_id', '=', userId)
          .where('role', 'in', ['DRIVER', 'MEDIA'])
          .execute();
        if (chosen.length > 0)
          await trx
            .insertInto('user_roles')
            .values(chosen.map((role) => ({ user_id: userId, role })))
            .execute();
      });
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
