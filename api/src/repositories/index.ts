/**
 * The API's storage, one repository per entity. Each owns its SQL and returns domain records;
 * the contract's shapes (signed links, pictures, labels) are built from them in src/views, and
 * route files never see SQL or a row.
 */
import type { Db } from '../db/database.js';
import { cartRepository } from './cart.js';
import { chatRepository } from './chat.js';
import { contactRepository } from './contact.js';
import { contentRepository } from './content.js';
import { idempotencyRepository } from './idempotency.js';
import { leasesRepository } from './leases.js';
import { liveOutboxRepository } from './liveOutbox.js';
import { mailOutboxRepository } from './mailOutbox.js';
import { passwordResetsRepository } from './passwordResets.js';
import { mediaJobsRepository } from './mediaJobs.js';
import { loginFailuresRepository } from './loginFailures.js';
import { notificationsRepository } from './notifications.js';
import { offersRepository } from './offers.js';
import { rateWindowsRepository } from './rateWindows.js';
import { rumRepository } from './rum.js';
import { ordersRepository } from './orders/index.js';
import { purchasesRepository } from './purchases.js';
import { sessionsRepository } from './sessions.js';
import { sql } from 'kysely';
import { inTransaction } from './sql.js';
import { type FileUrls, fileUrls } from './urls.js';
import type { FileLinks } from '../files/fileLinks.js';
import { type OutboxWakes, outboxWakes } from '../outbox/wake.js';
import { usersRepository } from './users.js';

/** The repositories on one connection or transaction. */
export type RepositorySet = ReturnType<typeof repositorySet>;

export interface Repositories extends RepositorySet {
  /**
   * Runs `work` in one transaction, for a change that spans repositories: it gets them all on it.
   * The outboxes' runners hear of its rows once it commits (`wakes`).
   */
  transaction<T>(work: (repos: RepositorySet) => Promise<T>): Promise<T>;
  /** Told after each commit of an outbox row written through these repositories. */
  wakes: OutboxWakes;
}

export function createRepositories(db: Db, filesOrigin: string, links: FileLinks): Repositories {
  const urls = fileUrls(filesOrigin, links);
  const wakes = outboxWakes();
  return {
    ...repositorySet(db, urls, wakes),
    transaction: (work) => inTransaction(db, (trx) => work(repositorySet(trx, urls, wakes))),
    wakes,
  };
}

function repositorySet(db: Db, urls: FileUrls, wakes: OutboxWakes) {
  const users = usersRepository(db);
  const purchases = purchasesRepository(db);
  return {
    urls,
    users,
    sessions: sessionsRepository(db, users),
    loginFailures: loginFailuresRepository(db),
    cart: cartRepository(db, urls),
    content: contentRepository(db, purchases),
    offers: offersRepository(db),
    contact: contactRepository(db),
    notifications: notificationsRepository(db),
    chat: chatRepository(db, urls),
    orders: ordersRepository(db),
    purchases,
    rum: rumRepository(db),
    rateWindows: rateWindowsRepository(db),
    idempotency: idempotencyRepository(db),
    leases: leasesRepository(db),
    liveOutbox: liveOutboxRepository(db, wakes.live),
    mailOutbox: mailOutboxRepository(db, wakes.mail),
    passwordResets: passwordResetsRepository(db),
    mediaJobs: mediaJobsRepository(db),
    /** Throws unless the database answers: the readiness check (/health). */
    async ping(): Promise<void> {
      await sql`SELECT 1`.execute(db);
    },
  };
}
