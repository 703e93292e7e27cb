import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { OutgoingMail } from '../repositories/mailOutbox.js';

/** Sends one mail, resolving once the SMTP server accepted it (and throwing when it did not). */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Nodemailer over SMTP to `url` (SMTP_URL, or the dev mailbox's own listener), from `from`. */
export function smtpMailer(url: string, from: string): Mailer {
  // A server that does not answer fails the send (retried later) rather than holding the sender.
  const options: SMTPTransport.Options = {
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  };
  const transport = nodemailer.createTransport(options);
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close: () => transport.close(),
  };
}

/**
 * Whether a failed send can never succeed, so retrying it is pointless: the SMTP server refused
 * this recipient or this message with a 5xx reply (SMTP's permanent failures; 4xx are transient).
 * A 5xx to anything else (AUTH, MAIL FROM) is this deployment's settings, refusing every mail
 * alike: retried (up to the cap) like a failure without a reply (the server unreachable, a timeout).
 */
export function isPermanentFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { responseCode, command } = error as Error & { responseCode?: unknown; command?: unknown };
  return (
    typeof responseCode === 'number' &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (command === 'RCPT TO' || command === 'DATA')
  );
}
