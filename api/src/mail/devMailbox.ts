import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

/** An SMTP listener that keeps what it receives: the dev mailbox, and the tests' mail server. */
export interface SmtpCatcher {
  /** smtp://127.0.0.1:<port>, for nodemailer. */
  url: string;
  close(): Promise<void>;
}

/**
 * An SMTP server on 127.0.0.1 (a free port) handing each message it accepts, raw, to `keep`;
 * `refuse` (tests) answers a message with a failure instead: a temporary one (451) for `true`, or
 * the reply code it answers (550: refused for good). No TLS or login: loopback only.
 */
export async function startSmtpCatcher(
  keep: (raw: string, envelopeTo: string[]) => Promise<void> | void,
  { refuse = () => false }: { refuse?: () => boolean | number } = {},
): Promise<SmtpCatcher> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refusal = refuse();
        if (refusal !== false) {
          const code = refusal === true ? 451 : refusal;
          const reason = code >= 500 ? 'Mailbox unavailable' : 'Mailbox busy, try later';
          callback(Object.assign(new Error(reason), { responseCode: code }));
          return;
        }
        const to = session.envelope.rcptTo.map((r) => r.address);
        Promise.resolve(keep(Buffer.concat(chunks).toString('utf8'), to)).then(
          () => callback(),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The dev mailbox (`npm start` with no SMTP_URL): mail is caught in-process and kept in `dir`,
 * one `<time>-<random>.eml` file per message, which any mail client opens; /internal/mailbox
 * lists them (mail/routes.ts).
 */
export function startDevMailbox(dir: string): Promise<SmtpCatcher> {
  mkdirSync(dir, { recursive: true });
  return startSmtpCatcher(async (raw) => {
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    await writeFile(join(dir, name), raw, { mode: 0o600 });
  });
}

/** The mailbox's files, newest first. */
export async function mailboxFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names
    .filter((name) => /^[\w-]+\.eml$/.test(name))
    .sort()
    .reverse();
}

export const readMailboxFile = (dir: string, name: string) =>
  /^[\w-]+\.eml$/.test(name) ? readFile(join(dir, name), 'utf8').catch(() => null) : Promise.resolve(null);
