/**
 * The mail outbox's senders on both engines, against a mailer of the test's own: each mail is sent
 * once by whoever holds its lease, however slow a batch or how many senders at once; only the
 * holder marks a mail; a temporary failure is retried with back-off up to the cap, a permanent
 * one (an SMTP 5xx to the recipient or the message) never. Over a real SMTP server, through the
 * API: accounts-mail.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Mailer } from '../src/mail/mailer.js';
import {
  createMailSender,
  MAIL_BATCH,
  MAIL_GIVE_UP_MS,
  MAIL_MOST_ATTEMPTS,
  type MailSender,
} from '../src/mail/sender.js';
import type { Repositories } from '../src/repositories/index.js';
import type { OutgoingMail } from '../src/repositories/mailOutbox.js';
import { until } from './harness.js';
import { relayDatabase } from './relayTesting.js';

const LEASE_MS = 60_000;
const timing = { pollMs: 60_000, retryFirstMs: 1000, retryMostMs: 3600_000, leaseMs: LEASE_MS };

/** A clock the test moves: senders given it see the time it says. */
const clock = () => {
  const state = { at: Date.now() };
  return { state, now: () => state.at };
};

/** A send the test lets go when it wants: `reached` once the sender is in it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened, reached: false };
}

/** A mailer that takes every mail (after its gate, if the mail has one) and logs whose it took. */
function mailer(log: string[], gates: Record<string, ReturnType<typeof gate>> = {}, fail?: () => unknown): Mailer {
  return {
    async send(mail) {
      const held = gates[mail.subject];
      if (held) {
        held.reached = true;
        await held.opened;
      }
      const error = fail?.();
      if (error) throw error;
      log.push(mail.subject);
    },
    close: () => undefined,
  };
}

const senders: MailSender[] = [];
afterEach(async () => {
  await Promise.all(senders.splice(0).map((sender) => sender.stop()));
});
const sender = (...args: Parameters<typeof createMailSender>) => {
  const created = createMailSender(...args);
  senders.push(created);
  return created;
};

describe('mail senders', () => {
  const { instance } = relayDatabase();
  let batch = 0;

  /** Queues `count` mails to an address of their own, subjects `${prefix} <n>`; answers the subjects. */
  async function queue(repos: Repositories, prefix: string, count: number): Promise<string[]> {
    const subjects = Array.from({ length: count }, (_, i) => `${prefix} ${++batch} ${i}`);
    for (const subject of subjects) {
      const mail: OutgoingMail = { kind: 'orderUpdate', to: `${prefix}@example.com`, subject, text: 't', html: 'h' };
      await repos.mailOutbox.add(mail);
    }
    return subjects;
  }

  const rowOf = async ({ db }: { db: Awaited<ReturnType<typeof instance>>['db'] }, subject: string) =>
    db
      .selectFrom('mail_outbox')
      .select(['attempts', 'sent_at', 'failed_at', 'last_error', 'next_attempt_at', 'lease_id'])
      .where('subject', '=', subject)
      .executeTakeFirstOrThrow();

  it('sends each mail of a batch once when the batch outlasts its lease and another sender takes what is left', async () => {
    const a = await instance();
    const b = await instance();
    const [first, second, third] = await queue(a.repos, 'slow', 3);
    const time = clock();
    const sentByA: string[] = [];
    const sentByB: string[] = [];
    const gates = { [first as string]: gate(), [second as string]: gate() };
    const slow = sender({ repos: a.repos, mailer: mailer(sentByA, gates) }, timing, time.now);
    const fast = sender({ repos: b.repos, mailer: mailer(sentByB) }, timing, time.now);

    // A takes the three and is held in the first send most of its lease.
    const passOfA = slow.pass();
    await until(() => gates[first as string]?.reached || undefined, 'the first send');
    time.state.at += LEASE_MS * 0.9;
    gates[first as string]?.open();
    await until(() => gates[second as string]?.reached || undefined, 'the second send');
    // The batch's lease is over: the third mail, not reached yet, is free; the second is being sent.
    time.state.at += LEASE_MS * 0.2;
    expect(await fast.pass()).toBe(1);
    expect(sentByB).toEqual([third]);
    gates[second as string]?.open();
    expect(await passOfA).toBe(2);
    expect(sentByA).toEqual([first, second]);
    for (const subject of [first, second, third]) expect((await rowOf(a, subject as string)).sent_at).not.toBeNull();
  });

  it('sends each mail once with two senders at once, on another pool each', async () => {
    const a = await instance();
    const b = await instance();
    const queued = await queue(a.repos, 'raced', MAIL_BATCH * 3 + 7);
    const took: string[] = [];
    const pair = [a, b].map(({ repos }) => sender({ repos, mailer: mailer(took) }, timing));
    await Promise.all([...pair, ...pair].map((s) => s.pass()));
    await Promise.all(pair.map((s) => s.pass()));
    expect(took.filter((subject) => queued.includes(subject)).sort()).toEqual([...queued].sort());
  });

  it('lets only the lease that holds a mail renew, mark sent, mark failed or give it up', async () => {
    const a = await instance();
    const [subject] = await queue(a.repos, 'forged', 1);
    const now = Date.now();
    const [taken] = await a.repos.mailOutbox.take(1, 1000, 'lease-1', new Date(now + 3600_000));
    expect(taken?.subject).toBe(subject);
    const id = taken?.id ?? 0;
    // Another sender takes it once the first lease ran out.
    const [again] = await a.repos.mailOutbox.take(1, 1000, 'lease-2', new Date(now + 3600_000 + 2000));
    expect(again?.id).toBe(id);
    for (const stale of ['lease-1', 'forged-lease']) {
      expect(await a.repos.mailOutbox.renew(id, stale, 1000)).toBe(false);
      expect(await a.repos.mailOutbox.sent(id, stale)).toBe(false);
      expect(await a.repos.mailOutbox.failed(id, stale, 5, new Date().toISOString(), 'x')).toBe(false);
      expect(await a.repos.mailOutbox.gaveUp(id, stale, 5, 'x')).toBe(false);
    }
    expect(await rowOf(a, subject as string)).toMatchObject({
      attempts: 0,
      sent_at: null,
      failed_at: null,
      lease_id: 'lease-2',
    });
    expect(await a.repos.mailOutbox.sent(id, 'lease-2')).toBe(true);
    expect((await rowOf(a, subject as string)).sent_at).not.toBeNull();
    // Sent: not taken again, nor marked by anyone.
    expect(await a.repos.mailOutbox.take(1, 1000, 'lease-3', new Date(now + 7200_000))).toEqual([]);
    expect(await a.repos.mailOutbox.gaveUp(id, 'lease-2', 1, 'x')).toBe(false);
  });

  it('retries a temporary failure with a growing wait, then gives it up at the cap with the reason', async () => {
    const a = await instance();
    const [subject] = await queue(a.repos, 'busy', 1);
    const time = clock();
    const took: string[] = [];
    const busy = () => Object.assign(new Error('Mailbox busy, try later: 451'), { responseCode: 451, command: 'DATA' });
    const s = sender({ repos: a.repos, mailer: mailer(took, {}, busy) }, timing, time.now);
    const waits: number[] = [];
    for (let attempt = 1; attempt < MAIL_MOST_ATTEMPTS; attempt++) {
      await s.pass();
      const row = await rowOf(a, subject as string);
      expect([row.attempts, row.failed_at, row.last_error]).toEqual([attempt, null, expect.stringMatching(/451/)]);
      waits.push(Date.parse(row.next_attempt_at) - time.state.at);
      // Not before its time.
      await s.pass();
      expect((await rowOf(a, subject as string)).attempts).toBe(attempt);
      time.state.at = Date.parse(row.next_attempt_at);
    }
    expect(waits).toEqual(waits.map((_, i) => Math.min(timing.retryMostMs, 1000 * 2 ** i)));
    await s.pass();
    const given = await rowOf(a, subject as string);
    expect([given.attempts, given.sent_at, given.last_error]).toEqual([
      MAIL_MOST_ATTEMPTS,
      null,
      expect.stringMatching(/451/),
    ]);
    expect(given.failed_at).not.toBeNull();
    // Given up: never taken again.
    time.state.at += 365 * 86_400_000;
    await s.pass();
    expect((await rowOf(a, subject as string)).attempts).toBe(MAIL_MOST_ATTEMPTS);
    expect(took).toEqual([]);
  });

  it('gives up a mail still failing a day after it was queued, whatever its attempts', async () => {
    const a = await instance();
    const [subject] = await queue(a.repos, 'day', 1);
    const time = clock();
    const down = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' });
    const s = sender({ repos: a.repos, mailer: mailer([], {}, down) }, timing, time.now);
    await s.pass();
    expect((await rowOf(a, subject as string)).failed_at).toBeNull();
    time.state.at += MAIL_GIVE_UP_MS;
    await s.pass();
    const given = await rowOf(a, subject as string);
    expect([given.attempts, given.last_error]).toEqual([2, expect.stringMatching(/ECONNREFUSED/)]);
    expect(given.failed_at).not.toBeNull();
  });

  it('gives up at once a mail the server refused for good (5xx to its recipient or message), and retries a 5xx to the login', async () => {
    const a = await instance();
    const [unknown, auth] = await queue(a.repos, 'refused', 2);
    const time = clock();
    const refusal = (subject: string) =>
      subject === unknown
        ? Object.assign(new Error("Can't send mail - all recipients were rejected: 550 5.1.1 no such user"), {
            responseCode: 550,
            command: 'RCPT TO',
          })
        : Object.assign(new Error('Invalid login: 535 5.7.8 bad credentials'), {
            responseCode: 535,
            command: 'AUTH PLAIN',
          });
    const sendsOf: string[] = [];
    const s = sender(
      {
        repos: a.repos,
        mailer: {
          async send(mail) {
            sendsOf.push(mail.subject);
            throw refusal(mail.subject);
          },
          close: () => undefined,
        },
      },
      timing,
      time.now,
    );
    await s.pass();
    const permanent = await rowOf(a, unknown as string);
    expect([permanent.attempts, permanent.last_error]).toEqual([1, expect.stringMatching(/550/)]);
    expect(permanent.failed_at).not.toBeNull();
    const login = await rowOf(a, auth as string);
    expect([login.attempts, login.failed_at]).toEqual([1, null]);
    time.state.at += 3600_000;
    await s.pass();
    expect(sendsOf.filter((subject) => subject === unknown)).toHaveLength(1);
    expect(sendsOf.filter((subject) => subject === auth)).toHaveLength(2);
  });
});
