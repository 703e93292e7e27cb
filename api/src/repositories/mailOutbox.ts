import type { Db } from '../db/database.js';
import type { Schema } from '../db/schema.js';
import type { OutboxWake } from '../outbox/wake.js';
import { afterCommit, nowIso, onPostgres } from './sql.js';

export type MailKind = Schema['mail_outbox']['kind'];

/** A rendered mail, as it is queued and sent. */
export interface OutgoingMail {
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A mail a sender took: it holds it under `leaseId` until the lease ends (`next_attempt_at`). */
export interface TakenMail extends OutgoingMail {
  id: number;
  /** Failed sends before this one. */
  attempts: number;
  /** When it was queued (ISO): a mail failing for too long is given up. */
  createdAt: string;
  leaseId: string;
}

/**
 * The mail outbox (0017, 0018; mail/sender.ts). A mail is a row written on the caller's connection
 * or transaction, so it exists exactly when what caused it committed. A sender takes due rows under
 * a lease of its own (an id written on each row, until `next_attempt_at`), renews a row's lease
 * right before sending it, and marks it sent, failed (to retry) or given up: each of those a
 * conditional update on the lease, so a sender whose lease ran out (another sender took the row
 * since) changes nothing and learns it. A sender that dies mid-way (after sending, before marking)
 * leaves the row to be taken again when the lease ends: delivered at least once, never lost.
 * `wake` tells this process's sender of each mail when it commits.
 */
export function mailOutboxRepository(db: Db, wake: OutboxWake) {
  /** The row while `leaseId` holds it: not sent, not given up, and no other sender took it since. */
  const held = (id: number, leaseId: string) =>
    db
      .updateTable('mail_outbox')
      .where('id', '=', id)
      .where('lease_id', '=', leaseId)
      .where('sent_at', 'is', null)
      .where('failed_at', 'is', null);

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
      afterCommit(db, wake.notify);
      return id;
    },

    /**
     * Takes up to `limit` due mails under `leaseId` for `leaseMs`: one conditional update moves
     * their next attempt past the lease and writes the lease's id, so no other sender takes them
     * meanwhile, and only this lease marks them. On PostgreSQL the rows are chosen FOR UPDATE SKIP
     * LOCKED, so two senders at once take different mails.
     */
    async take(limit: number, leaseMs: number, leaseId: string, now = new Date()): Promise<TakenMail[]> {
      const nowText = now.toISOString();
      const leaseEnd = new Date(now.getTime() + leaseMs).toISOString();
      const due = db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', nowText)
        .orderBy('id')
        .limit(limit);
      const rows = await db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: leaseEnd, lease_id: leaseId })
        .where('id', 'in', onPostgres(db) ? due.forUpdate().skipLocked() : due)
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .where('next_attempt_at', '<=', nowText)
        .returning(['id', 'kind', 'to_address', 'subject', 'text_body', 'html_body', 'attempts', 'created_at'])
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
          createdAt: row.created_at,
          leaseId,
        }))
        .sort((a, b) => a.id - b.id);
    },

    /**
     * Extends `leaseId`'s hold on a mail for `leaseMs` from `now`, right before it is sent, so a
     * batch's last mail is as safe as its first; false when the lease ran out and another sender
     * took it (or it was sent or given up): then it must not be sent.
     */
    async renew(id: number, leaseId: string, leaseMs: number, now = new Date()): Promise<boolean> {
      const { numUpdatedRows } = await held(id, leaseId)
        .set({ next_attempt_at: new Date(now.getTime() + leaseMs).toISOString() })
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /**
     * The SMTP server took it; false when `leaseId` no longer held it (nothing changed). Its body
     * goes now: a reset mail's link is a live secret that only the inbox is to hold.
     */
    async sent(id: number, leaseId: string): Promise<boolean> {
      const { numUpdatedRows } = await held(id, leaseId)
        .set({ sent_at: nowIso(), last_error: null, text_body: '', html_body: '' })
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /**
     * A send failed for now: its `attempts`, the reason, and not before `retryAt` (ISO) again;
     * false when `leaseId` no longer held it (nothing changed).
     */
    async failed(id: number, leaseId: string, attempts: number, retryAt: string, reason: string): Promise<boolean> {
      const { numUpdatedRows } = await held(id, leaseId)
        .set({ attempts, next_attempt_at: retryAt, last_error: reason.slice(0, 500) })
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /**
     * Gives a mail up (the server refused it for good, or it failed too often or too long): never
     * taken again, the reason kept, its body dropped (as a sent one's); false when `leaseId` no longer held it (nothing changed).
     */
    async gaveUp(id: number, leaseId: string, attempts: number, reason: string): Promise<boolean> {
      const { numUpdatedRows } = await held(id, leaseId)
        .set({ attempts, failed_at: nowIso(), last_error: reason.slice(0, 500), text_body: '', html_body: '' })
        .executeTakeFirst();
      return numUpdatedRows > 0n;
    },

    /** Removes up to `batch` mails sent or given up before `before` (ISO); answers how many went. */
    async prune(before: string, batch: number): Promise<number> {
      const { numDeletedRows } = await db
        .deleteFrom('mail_outbox')
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('mail_outbox')
            .select('id')
            .where((w) => w.or([w('sent_at', '<', before), w('failed_at', '<', before)]))
            .orderBy('id')
            .limit(batch),
        )
        .executeTakeFirst();
      return Number(numDeletedRows);
    },
  };
}
