/**
 * The API's storage, one repository per entity. Each owns its SQL and maps its rows to the
 * contract's shapes (or the domain's, for orders); route files never see SQL or a row.
 */
import type { Db } from '../db/database.js';
import { cartRepository } from './cart.js';
import { chatRepository } from './chat.js';
import { contactRepository } from './contact.js';
import { contentRepository } from './content.js';
import { liveClientsRepository } from './liveClients.js';
import { notificationsRepository } from './notifications.js';
import { offersRepository } from './offers.js';
import { rumRepository } from './rum.js';
import { ordersRepository } from './orders.js';
import { sessionsRepository } from './sessions.js';
import { fileUrls } from './urls.js';
import { usersRepository } from './users.js';

export type Repositories = ReturnType<typeof createRepositories>;

export function createRepositories(db: Db, filesOrigin: string) {
  const urls = fileUrls(filesOrigin);
  const users = usersRepository(db, urls);
  return {
    urls,
    users,
    sessions: sessionsRepository(db, users),
    liveClients: liveClientsRepository(db),
    cart: cartRepository(db, urls),
    content: contentRepository(db, urls, users),
    offers: offersRepository(db),
    contact: contactRepository(db),
    notifications: notificationsRepository(db),
    chat: chatRepository(db, urls, users),
    orders: ordersRepository(db, urls),
    rum: rumRepository(db),
    /** Runs `work` in one SQLite transaction, for a change that spans repositories. */
    transaction<T>(work: () => T): T {
      return db.transaction(work)();
    },
  };
}
