import type { Db } from '../db/database.js';
import { userViews } from '../views/users.js';
import type { FileUrls } from './urls.js';
import { accountsRepository } from './users/accounts.js';
import { avatarsRepository } from './users/avatars.js';
import { mailSettingsRepository } from './users/mail.js';
import { profilesRepository } from './users/profiles.js';
import { rolesRepository } from './users/roles.js';

// Named here too for repositories/chat.ts, which knows users by this module.
export type { UserRef } from './users/ref.js';

export type UsersRepository = ReturnType<typeof usersRepository>;

/** Accounts: log in and sign up lookups, profiles, roles, mail settings and profile pictures. */
export function usersRepository(db: Db, urls: FileUrls) {
  const roles = rolesRepository(db);
  return {
    ...accountsRepository(db),
    ...roles,
    ...profilesRepository(db, roles.rolesOf),
    ...mailSettingsRepository(db),
    ...avatarsRepository(db),
    /** A user's chat window entry, for repositories/chat.ts's open chats (the shape is views/users.ts's). */
    chatEntry: userViews(urls).chatEntry,
  };
}
