import type { Db } from '../db/database.js';
import type { Schema } from '../db/schema.js';
import { nowIso, onPostgres } from './sql.js';

export type MailKind = Schema['mail_outbox']['kind'];

/** A rendered mail, as it is queued and sent. */
export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A mail a sender took: it holds it until its lease ends (`next_attempt_at`). */
export interface TakenMail extends OutgoingMail {
  id: number;
  attempts: number;
}

/**
 * The mail outbox (0017; mail/sender.ts). A mail is a row written on the caller's connection or
 * transaction, so it exists exactly when what caused it committed; a sender takes due rows for a
 * lease, sends each, and marks it sent or failed. A sender that dies mid-way (after sending, before
 * marking) leaves the row to be taken again when the lease ends: delivered at least once, never lost.
 */
export function mailOutboxRepository(db: Db) {
  return {
    /** Queues a mail; answers its id. */
    async add(mail: OutgoingMail): Promise<number> {
      const now = nowIso();
      const { id } = await db
        .insertInto('mail_outbox')
        .values({
          kind: mail.kind,
          to_address: mail.to,
          subject: mail.subject,
          text_body: mail.text,
          html_body: mail.html,
          created_at: now,
          next_attempt_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    /**
     * Takes up to `limit` due mails for `leaseMs`: one conditional update moves their next attempt
     * past the lease, so no other sender (another instance) takes them meanwhile. On PostgreSQL the
     * rows are chosen FOR UPDATE SKIP LOCKED, so two senders at once take different mails.
     */
    async take(limit: number, leaseMs: number, now = new Date()): Promise<TakenMail[]> {
      const nowText = now.toISOString();
      const leaseEnd = new Date(now.getTime() + leaseMs).toISOString();
      const due = db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', nowText)
        .orderBy('id')
        .limit(limit);
      const rows = await db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: leaseEnd })
        .where('id', 'in', onPostgres(db) ? due.forUpdate().skipLocked() : due)
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', nowText)
        .returning(['id', 'kind', 'to_address', 'subject', 'text_body', 'html_body', 'attempts'])
        .execute();
      return rows
        .map((row) => ({
          id: row.id,
          kind: row.kind,
          to: row.to_address,
          subject: row.subject,
          text: row.text_body,
          html: row.html_body,
          attempts: row.attempts,
        }))
        .sort((a, b) => a.id - b.id);
    },

    async sent(id: number): Promise<void> {
      await db.updateTable('mail_outbox').set({ sent_at: nowIso(), last_error: null }).where('id', '=', id).execute();
    },

    /** A send failed: its `attempts`, the reason, and not before `retryAt` (ISO) again. */
    async failed(id: number, attempts: number, retryAt: string, reason: string): Promise<void> {
      await db
        .updateTable('mail_outbox')
        .set({ attempts, next_attempt_at: retryAt, last_error: reason.slice(0, 500) })
        .where('id', '=', id)
        .where('sent_at', 'is', null)
        .execute();
    },

    /** Removes up to `batch` mails sent before `before` (ISO); answers how many went. */
    async prune(before: string, batch: number): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('mail_outbox')
        .where('id', 'in', (eb) =>
          eb.selectFrom('mail_outbox').select('id').where('sent_at', '<', before).orderBy('id').limit(batch),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
