/**
 * Accounts people can recover: password reset and change, the sessions a user has
 * open, and which notification emails they want.
 */

/** The password rule, the same at sign-up, reset and change. */
export const PASSWORD_RULE = { min: 8, max: 200 } as const;

/** The rule as a new-password field states it (its hint), before anything is typed. */
export const PASSWORD_HINT = `At least ${PASSWORD_RULE.min} characters`;

/** What breaks the password rule in `password`, checked before sending; undefined when it keeps it. */
export function passwordProblem(password: string): string | undefined {
  if (!password) return 'Enter a password';
  if (password.length < PASSWORD_RULE.min) return `Too short: at least ${PASSWORD_RULE.min} characters`;
  if (password.length > PASSWORD_RULE.max) return `Too long: at most ${PASSWORD_RULE.max} characters`;
  return undefined;
}

/** A profile name: it is the user's page address (/user/<name>), so lowercase and URL-safe. */
export const PROFILE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{1,29}$/;

/** The profile name rule in words, as the sign-up form's hint and the API's refusal state it. */
export const PROFILE_NAME_HINT = '2 to 30 lowercase letters, digits, - or _';

/** Whether `text` reads as an email address (the API checks it fully): the forms' check before sending. */
export const looksLikeEmail = (text: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text);

/** A password reset link lasts this long, and works once. */
export const PASSWORD_RESET_MINUTES = 30;

/** One of the user's sessions (a browser signed in), as the settings list them. */
export interface AccountSession {
  /** Names the session for `endAccountSession`; not its secret. */
  id: string;
  /** The browser and system, read from its user agent ('Unknown device' without one). */
  device: string;
  /** When it signed in (ISO). */
  createdAt: string;
  /** When it was last used (ISO; within a few minutes), or its sign-in. */
  lastSeenAt: string;
  /** The session this request came with. */
  current: boolean;
}

/** Which optional emails the user gets; a password reset link is always sent. */
export interface MailPreferences {
  /** A new sign-in to the account. */
  signIn: boolean;
  /** A receipt for each paid purchase. */
  receipts: boolean;
  /** An event order's changes. */
  orderUpdates: boolean;
}

export const MAIL_PREFERENCE_KINDS = [
  'signIn',
  'receipts',
  'orderUpdates',
] as const satisfies readonly (keyof MailPreferences)[];
