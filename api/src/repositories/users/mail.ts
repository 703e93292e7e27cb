import type { MailPreferences } from '@marketplace/shared/contract';
import type { Db } from '../../db/database.js';

/** Where a user's mail goes and which optional mails they want. */
export function mailSettingsRepository(db: Db) {
  return {
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
  };
}
