import type { ContactMessage } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { nowIso } from './sql.js';

export type ContactRepository = ReturnType<typeof contactRepository>;

/** Messages written to the business through the contact form. */
export function contactRepository(db: Db) {
  return {
    async add(message: ContactMessage): Promise<void> {
      await db
        .insertInto('contact_messages')
        .values({
          name: message.name,
          email: message.email,
          subject: message.subject,
          message: message.message,
          created_at: nowIso(),
        })
        .execute();
    },
  };
}
