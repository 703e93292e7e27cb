import type { Db } from '../db/database.js';
import { accountsRepository } from './users/accounts.js';
import { avatarsRepository } from './users/avatars.js';
import { mailSettingsRepository } from './users/mail.js';
import { profilesRepository } from './users/profiles.js';
import { rolesRepository } from './users/roles.js';

export type UsersRepository = ReturnType<typeof usersRepository>;

/** Accounts: log in and sign up lookups, profiles, roles, mail settings and profile pictures. */
export function usersRepository(db: Db) {
  const roles = rolesRepository(db);
  return {
    ...accountsRepository(db),
    ...roles,
    ...profilesRepository(db, roles.rolesOf),
    ...mailSettingsRepository(db),
    ...avatarsRepository(db),
  };
}
