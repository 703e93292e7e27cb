import { PASSWORD_RESET_MINUTES } from '@marketplace/shared/contract';
import type { MailKind } from '../repositories/mailOutbox.js';

/** A mail as written: its subject, plain text, and a simple HTML version of the same. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** What each kind of mail says, beyond the recipient's name. */
export interface MailData {
  passwordReset: { link: string };
  signIn: { device: string; address: string | null; at: Date; settingsLink: string };
  receipt: {
    purchaseNumber: string;
    lines: { name: string; amount: string }[];
    total: string;
    link: string;
  };
  orderUpdate: { orderId: string; eventName: string; news: string; link: string };
}

/** Text made safe inside HTML: everything a user wrote (names, messages) goes through it. */
export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);

/** A subject is one line: a newline a user typed (an event's name) must not start a header. */
const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

/**
 * One mail from paragraphs: the text version as written, the HTML one escaped, with the link (if
 * any) as a link. Plain on purpose: it reads the same in any client, text or HTML.
 */
function mail(
  subject: string,
  name: string,
  paragraphs: string[],
  action?: { label: string; href: string },
): RenderedMail {
  const text = [
    `Hello ${name},`,
    ...paragraphs,
    ...(action ? [`${action.label}: ${action.href}`] : []),
    '— EventMedia',
  ].join('\n\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
    `<p>Hello ${escapeHtml(name)},</p>`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    ...(action ? [`<p><a href="${escapeHtml(action.href)}">${escapeHtml(action.label)}</a></p>`] : []),
    '<p>— EventMedia</p>',
    '</body></html>',
  ].join('\n');
  return { subject: oneLine(subject), text: `${text}\n`, html: `${html}\n` };
}

export const MAIL_TEMPLATES: { [K in MailKind]: (name: string, data: MailData[K]) => RenderedMail } = {
  passwordReset: (name, { link }) =>
    mail(
      'Set a new password',
      name,
      [
        `Someone (we hope you) asked to set a new password for your EventMedia account. The link below works once, for ${PASSWORD_RESET_MINUTES} minutes.`,
        'If it was not you, ignore this mail: your password stays as it is.',
      ],
      { label: 'Set a new password', href: link },
    ),
  signIn: (name, { device, address, at, settingsLink }) =>
    mail(
      'New sign-in to your account',
      name,
      [
        `Your account was signed in to on ${at.toUTCString()} from ${device}${address ? ` (${address})` : ''}.`,
        'If it was not you, change your password and log out the sessions you do not know in your settings.',
      ],
      { label: 'Your settings', href: settingsLink },
    ),
  receipt: (name, { purchaseNumber, lines, total, link }) =>
    mail(
      `Your receipt ${purchaseNumber}`,
      name,
      [
        `Thank you for your purchase ${purchaseNumber}.`,
        lines.map((line) => `${line.name}: ${line.amount}`).join('\n'),
        `Total paid: ${total}`,
      ],
      { label: 'Your receipt and downloads', href: link },
    ),
  orderUpdate: (name, { orderId, eventName, news, link }) =>
    mail(`Order ${orderId} (${eventName}) changed`, name, [news], { label: 'See the order', href: link }),
};
