import type { MailSending } from '../config.js';
import type { Repositories } from '../repositories/index.js';
import type { Mailer } from './mailer.js';

/** Mails one pass takes at a time. */
export const MAIL_BATCH = 20;

export interface MailSender {
  /** Asks for a pass now: a mail was just queued (maybe not committed yet: the poll finds it then). */
  kick(): void;
  /** One pass now, or after the one under way; answers how many mails it sent. */
  pass(): Promise<number>;
  /** Polls every `pollMs` from now. */
  start(): void;
  /** Stops polling and lets the pass under way end. */
  stop(): Promise<void>;
}

/** The wait after a mail's `attempts`-th failed send: doubling from the first, up to the most. */
export const mailRetryDelayMs = (timing: Pick<MailSending, 'retryFirstMs' | 'retryMostMs'>, attempts: number) =>
  Math.min(timing.retryMostMs, timing.retryFirstMs * 2 ** Math.max(0, attempts - 1));

/**
 * Sends the mail outbox (repositories/mailOutbox.ts), as the live relay publishes the live one
 * (live/relay.ts): each instance runs one, told after each write and polling every `pollMs`. A
 * pass takes due mails for a lease (so two instances never take the same one), sends each, and
 * marks it sent once the SMTP server accepted it; a send that fails is retried after back-off
 * (`mailRetryDelayMs`), forever, and a sender that dies mid-way leaves its mails to be taken again
 * after the lease. At least once: a crash between the server's acceptance and the mark sends it again.
 */
export function createMailSender(
  { repos, mailer }: { repos: Pick<Repositories, 'mailOutbox'>; mailer: Mailer },
  timing: Pick<MailSending, 'pollMs' | 'retryFirstMs' | 'retryMostMs' | 'leaseMs'>,
): MailSender {
  let running: Promise<number> | null = null;
  let again = false;
  let polling: ReturnType<typeof setInterval> | null = null;
  let stopped = false;
  let failing = false;

  const report = (what: string, error: unknown) =>
    console.error(`[mail] ${what}: ${error instanceof Error ? error.message : String(error)}`);

  const run = async (): Promise<number> => {
    let sent = 0;
    for (;;) {
      let taken;
      try {
        taken = await repos.mailOutbox.take(MAIL_BATCH, timing.leaseMs);
        failing = false;
      } catch (error) {
        // The database (down, restarting): the next poll tries again; said once per outage.
        if (!failing) report('the outbox cannot be read', error);
        failing = true;
        return sent;
      }
      for (const mail of taken) {
        try {
          await mailer.send(mail);
        } catch (error) {
          const attempts = mail.attempts + 1;
          const retryAt = new Date(Date.now() + mailRetryDelayMs(timing, attempts)).toISOString();
          const reason = error instanceof Error ? error.message : String(error);
          await repos.mailOutbox.failed(mail.id, attempts, retryAt, reason).catch(() => undefined);
          // The first failure, then every tenth: a mail server down for a day is not a line a poll.
          if (attempts % 10 === 1) report(`mail ${mail.id} not sent (attempt ${attempts})`, error);
          continue;
        }
        // Not marked (the database failed just now): the lease ends and it is sent again, at least once.
        await repos.mailOutbox
          .sent(mail.id)
          .catch((error: unknown) => report(`mail ${mail.id} sent, not marked`, error));
        sent++;
      }
      if (taken.length < MAIL_BATCH || stopped) return sent;
    }
  };

  const pass = (): Promise<number> => {
    if (running) {
      again = true;
      return running;
    }
    const current = (async () => {
      let total = 0;
      do {
        again = false;
        total += await run();
      } while (again && !stopped);
      return total;
    })().finally(() => {
      if (running === current) running = null;
    });
    running = current;
    return current;
  };

  return {
    kick() {
      if (!stopped) void pass();
    },
    pass,
    start() {
      stopped = false;
      polling ??= setInterval(() => void pass(), timing.pollMs);
      polling.unref();
    },
    async stop() {
      stopped = true;
      if (polling) clearInterval(polling);
      polling = null;
      await running;
    },
  };
}
