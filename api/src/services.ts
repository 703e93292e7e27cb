import type { Notification } from '@marketplace/shared/contract';
import type { ApiConfig } from './config.js';
import type { FileStore } from './files/store.js';
import type { LivePublisher } from './live/publisher.js';
import type { Repositories, RepositorySet } from './repositories/index.js';

/** What the routes are given: storage through the repositories and the file store only, the configuration, and the live channel. */
export interface Services {
  repos: Repositories;
  files: FileStore;
  config: ApiConfig;
  live: LivePublisher;
}

/**
 * Stores a NEW notification for a user and pushes it on notifications/{profileName}. Inside a
 * transaction, pass its repositories (a query outside it would wait for the transaction's
 * connection on SQLite).
 */
export async function notifyUser(
  { repos, live }: { repos: RepositorySet; live: LivePublisher },
  userId: number,
  content: string,
  link: string | null,
): Promise<Notification> {
  const notification = await repos.notifications.add(userId, content, link);
  const profileName = await repos.users.profileNameOf(userId);
  if (profileName) live.publish('notifications', profileName, notification);
  return notification;
}

/**
 * Ends a session's live access: its broker logins are revoked and their connections closed.
 * Called before the session's rows go (logout, the expiry sweep); a broker that cannot be reached
 * is logged, and the logins die with the session rows anyway on the embedded broker.
 */
export async function endLiveAccess({ repos, live }: Services, token: string): Promise<void> {
  try {
    await live.endSession(token, await repos.liveClients.ofSession(token));
  } catch (error) {
    console.error(
      `[live] could not revoke a session's broker logins: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
