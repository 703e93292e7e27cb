import type { MailPreferences } from '@marketplace/shared/contract';
import type { MailConfig } from '../config.js';
import type { RepositorySet } from '../repositories/index.js';
import type { MailKind } from '../repositories/mailOutbox.js';
import { MAIL_TEMPLATES, type MailData } from './templates.js';

/** Where a mail is queued: the repositories of the caller's transaction, and the mail settings. */
export interface MailOutbox {
  repos: RepositorySet;
  config: { mail: MailConfig };
}

/** The preference that switches each optional kind of mail; a reset link is always sent. */
const PREFERENCE_OF: Record<MailKind, keyof MailPreferences | null> = {
  passwordReset: null,
  signIn: 'signIn',
  receipt: 'receipts',
  orderUpdate: 'orderUpdates',
};

/**
 * Queues a mail of `kind` for a user, rendered now, in the outbox on `repos`: inside a
 * transaction, it is sent only if that commits (mail/sender.ts). Nothing when mail is off
 * (MAIL=off) or the user switched this kind off. Answers whether one was queued.
 */
export async function queueMail<K extends MailKind>(
  { repos, config }: MailOutbox,
  userId: number,
  kind: K,
  data: MailData[K],
): Promise<boolean> {
  if (config.mail.mode === 'off') return false;
  const target = await repos.users.mailTarget(userId);
  if (!target) return false;
  const preference = PREFERENCE_OF[kind];
  if (preference && !target.preferences[preference]) return false;
  const rendered = MAIL_TEMPLATES[kind](target.username, data);
  await repos.mailOutbox.add({ kind, to: target.email, ...rendered });
  return true;
}

/** A link to a page of the shell, for a mail. */
export const mailLink = (config: { mail: MailConfig }, path: string, origin?: string) =>
  `${origin ?? (config.mail.mode === 'off' ? '' : config.mail.linkOrigin)}${path}`;
