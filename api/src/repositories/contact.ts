import type { ContactMessage } from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { nowIso } from './sql.js';

export type ContactRepository = ReturnType<typeof contactRepository>;

/** Messages written to the business through the contact form. */
export function contactRepository(db: Db) {
  return {
    add(message: ContactMessage): void {
      db.prepare('INSERT INTO contact_messages (name, email, subject, message, created_at) VALUES (?, ?, ?, ?, ?)').run(
        message.name,
        message.email,
        message.subject,
        message.message,
        nowIso(),
      );
    },
  };
}
