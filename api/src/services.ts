import { messageOf } from '@marketplace/shared/errors';
import type { LivePayloads, Notification } from '@marketplace/shared/contract';
import type { ApiConfig } from './config.js';
import type { FileStore } from './files/fileStore.js';
import type { LiveLogins } from './live/logins.js';
import type { LivePublisher } from './live/publisher.js';
import type { JobQueue } from './media/jobQueue.js';
import type { PaymentProvider } from './payments/provider.js';
import type { Repositories, RepositorySet } from './repositories/index.js';
import type { OutboxKind } from './repositories/liveOutbox.js';

/** What the routes are given: storage through the repositories and the file store only, the configuration, and the live channel. */
export interface Services {
  repos: Repositories;
  files: FileStore;
  config: ApiConfig;
  live: LivePublisher;
  /** Signs and checks pages' broker logins (live/logins.ts). */
  logins: LiveLogins;
  /** The media jobs (media/queue.ts): an uploaded file is processed by one before anything of it is served. */
  media: JobQueue;
  /** Who takes payments; null when none is set up (checkout then says so). */
  payments: PaymentProvider | null;
}

/**
 * Queues a live message for `profileName` in the outbox, on `repos` (the caller's transaction's,
 * if it has one): in a transaction, it is published only if that commits, and after
 * (live/relay.ts). Publishes nothing itself.
 */
export async function sendLive<K extends OutboxKind>(
  repos: RepositorySet,
  kind: K,
  profileName: string,
  payload: LivePayloads[K],
): Promise<void> {
  await repos.liveOutbox.add(kind, profileName, payload);
}

/**
 * Stores a NEW notification for a user and queues it for notifications/{profileName}. Inside a
 * transaction, pass its repositories: the notification and its live message commit or roll back
 * together (and a query outside it would wait for the transaction's connection on SQLite).
 */
export async function notifyUser(
  repos: RepositorySet,
  userId: number,
  content: string,
  link: string | null,
): Promise<Notification> {
  const notification = await repos.notifications.add(userId, content, link);
  const profileName = await repos.users.profileNameOf(userId);
  if (profileName) await sendLive(repos, 'notifications', profileName, notification);
  return notification;
}

/**
 * Ends a session (logout, the expiry sweep; named by its key, repositories/sessions.ts
 * sessionKeyOf) and its live access: `removeSession` deletes its rows,
 * and then the connections of its pages are closed on every broker node. In that order, so a page
 * that reconnects at once is refused (the broker checks the session at each connect). A broker
 * that cannot be told is logged, and the sweep closes what is left (closeEnded).
 */
export async function endSessionAndLiveAccess(
  { repos, live, logins }: Services,
  token: string | undefined,
  removeSession: () => Promise<void>,
): Promise<void> {
  const identity = token ? await repos.sessions.liveIdentityOf(token) : null;
  await removeSession();
  if (!identity) return;
  try {
    if (token) await live.endSession({ token, username: logins.usernameOf(identity) });
  } catch (error) {
    console.error(`[live] could not revoke a session's broker logins: ${messageOf(error)}`);
  }
}
