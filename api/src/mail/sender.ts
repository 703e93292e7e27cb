import { randomUUID } from 'node:crypto';
import { messageOf } from '@marketplace/shared/errors';
import type { MailSending } from '../config.js';
import { createOutboxRunner, type OutboxRunner } from '../outbox/runner.js';
import type { Repositories } from '../repositories/index.js';
import type { TakenMail } from '../repositories/mailOutbox.js';
import { isPermanentFailure, type Mailer } from './mailer.js';

/** Mails one pass takes at a time. */
export const MAIL_BATCH = 20;
/**
 * A mail that failed this many sends is given up: with the default back-off (10 s doubling to an
 * hour) about 20 hours of trying, so a mail server down for an afternoon loses no mail...
 */
export const MAIL_MOST_ATTEMPTS = 30;
/** ...and so is one still failing this long after it was queued. */
export const MAIL_GIVE_UP_MS = 24 * 3600_000;

/** The sender's runner (outbox/runner.ts): woken after each commit of a mail, and polling. */
export type MailSender = OutboxRunner;

/** The wait after a mail's `attempts`-th failed send: doubling from the first, up to the most. */
export const mailRetryDelayMs = (timing: Pick<MailSending, 'retryFirstMs' | 'retryMostMs'>, attempts: number) =>
  Math.min(timing.retryMostMs, timing.retryFirstMs * 2 ** Math.max(0, attempts - 1));

/**
 * Sends the mail outbox (repositories/mailOutbox.ts), as the live relay publishes the live one
 * (live/relay.ts), on the same runner (outbox/runner.ts): each instance runs one, woken after each
 * commit of a mail (outbox/wake.ts) and polling every `pollMs`. A batch takes due mails under a lease of its own (so two
 * instances never take the same one); before each send it renews that mail's lease, and skips the
 * mail if the lease ran out and another sender took it meanwhile (a batch slower than its lease
 * never sends its later mails a second time). A mail is marked sent once the SMTP server accepted
 * it, by the lease that sent it only. A send that fails for now (4xx, no answer) is retried after
 * back-off (`mailRetryDelayMs`) until it failed MAIL_MOST_ATTEMPTS times or MAIL_GIVE_UP_MS
 * passed since it was queued; one the server refused for good (a 5xx to its recipient or its
 * message) is given up at once; a given-up mail keeps its reason in last_error. At least once: a
 * sender that dies between the server's acceptance and the mark, or whose send outlasts the lease,
 * has that one mail sent again.
 */
export function createMailSender(
  { repos, mailer }: { repos: Pick<Repositories, 'mailOutbox' | 'wakes'>; mailer: Mailer },
  timing: Pick<MailSending, 'pollMs' | 'retryFirstMs' | 'retryMostMs' | 'leaseMs'>,
  now: () => number = Date.now,
): MailSender {
  const report = (what: string, error: unknown) => console.error(`[mail] ${what}: ${messageOf(error)}`);

  /** Records a failed send: retried later, or given up. */
  const failed = async (mail: TakenMail, error: unknown) => {
    const attempts = mail.attempts + 1;
    const reason = messageOf(error);
    const retryAt = now() + mailRetryDelayMs(timing, attempts);
    const giveUp =
      isPermanentFailure(error) ||
      attempts >= MAIL_MOST_ATTEMPTS ||
      retryAt - Date.parse(mail.createdAt) >= MAIL_GIVE_UP_MS;
    if (giveUp) {
      await repos.mailOutbox.gaveUp(mail.id, mail.leaseId, attempts, reason).catch(() => undefined);
      report(`mail ${mail.id} given up (attempt ${attempts})`, error);
      return;
    }
    await repos.mailOutbox
      .failed(mail.id, mail.leaseId, attempts, new Date(retryAt).toISOString(), reason)
      .catch(() => undefined);
    // The first failure, then every tenth: a mail server down for a day is not a line a poll.
    if (attempts % 10 === 1) report(`mail ${mail.id} not sent (attempt ${attempts})`, error);
  };

  return createOutboxRunner({
    name: '[mail]',
    pollMs: timing.pollMs,
    wake: repos.wakes.mail,
    async batch() {
      const taken = await repos.mailOutbox.take(MAIL_BATCH, timing.leaseMs, randomUUID(), new Date(now()));
      let sent = 0;
      for (const mail of taken) {
        // Held again from now, or taken by another sender since: then it is that sender's to send.
        if (!(await repos.mailOutbox.renew(mail.id, mail.leaseId, timing.leaseMs, new Date(now())))) continue;
        try {
          await mailer.send(mail);
        } catch (error) {
          await failed(mail, error);
          continue;
        }
        // Not marked (the database failed just now, or the send outlasted the lease and another
        // sender took it): it is sent again, at least once.
        await repos.mailOutbox
          .sent(mail.id, mail.leaseId)
          .then((marked) => {
            if (!marked) report(`mail ${mail.id} sent, not marked`, new Error('its lease ran out during the send'));
          })
          .catch((error: unknown) => report(`mail ${mail.id} sent, not marked`, error));
        sent++;
      }
      return { done: sent, more: taken.length === MAIL_BATCH };
    },
  });
}
