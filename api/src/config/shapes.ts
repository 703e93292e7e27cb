/**
 * The shapes of the configuration's parts that modules take on their own (the mail sender, the
 * payment provider, the file store), and the few values derived from it.
 */

/**
 * SMTP_URL=smtp(s)://user:pass@host:port: mail goes there (nodemailer). Unset, outside production:
 * an SMTP listener of the API's own on 127.0.0.1 catches it into the dev mailbox (MAILBOX_DIR,
 * `<database folder>/mailbox`, listed at /internal/mailbox). MAIL=off: no mail is queued or sent.
 * NODE_ENV=production refuses to start with neither SMTP_URL nor MAIL=off: a deployment's mail
 * must not land in a folder nobody reads.
 */
export type MailConfig =
  ({ mode: 'smtp'; url: string } & MailSending) | ({ mode: 'dev'; mailboxDir: string } & MailSending) | { mode: 'off' };

export interface MailSending {
  /** The From address (MAIL_FROM). */
  from: string;
  /** Where links in mails point: the shell's origin (MAIL_LINK_ORIGIN, default the first allowed origin). */
  linkOrigin: string;
  /** How often the sender looks for mail it was not told of (MAIL_POLL_MS). */
  pollMs: number;
  /** The wait after a failed send, doubled at each further one up to the most (MAIL_RETRY_FIRST_MS, MAIL_RETRY_MOST_MS). */
  retryFirstMs: number;
  retryMostMs: number;
  /** How long a sender holds a mail it took; a sender that died lets it go after this (MAIL_SEND_LEASE_MS). */
  leaseMs: number;
}

/**
 * Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; the embedded test payments
 * with the demo data (`npm start`, the tests) or when PAYMENTS_PROVIDER=test names them; else
 * none, and checkout says payments are not set up. Test payments never start in a deployment by
 * default: no money moves through them.
 */
export type PaymentsConfig =
  | { provider: 'stripe'; secretKey: string; webhookSecret: string }
  | { provider: 'test'; webhookSecret: string }
  | { provider: 'none' };

/** An S3-compatible object store for uploads and media (FILES_S3_*). */
export interface FilesS3Config {
  /** Where the API reaches the store (FILES_S3_ENDPOINT). */
  endpoint: string;
  /** Where browsers reach it: presigned upload and download URLs name this (FILES_S3_PUBLIC_ENDPOINT, default endpoint). */
  publicEndpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bucket in the path (MinIO, s3rver, any endpoint by address) rather than in the host name. */
  pathStyle: boolean;
}

/** The basic-auth user name the broker's HTTP backend asks /internal/broker/* as (rabbitmq.conf `auth_http.*`). */
export const BROKER_AUTH_USER = 'broker-auth';

/** The size limit of an upload of `contentType`: images (compressed in the browser) and videos have their own. */
export const uploadLimit = (config: { uploadMaxBytes: number; videoUploadMaxBytes: number }, contentType: string) =>
  contentType.startsWith('video/') ? config.videoUploadMaxBytes : config.uploadMaxBytes;
