import type { Notification } from '@marketplace/shared/contract';
import type { ApiConfig } from './config.js';
import type { Db } from './db/database.js';
import type { LivePublisher } from './live/publisher.js';
import { nowIso } from './model.js';

export interface Services {
  db: Db;
  config: ApiConfig;
  live: LivePublisher;
}

/** Stores a NEW notification for a user and pushes it on notifications/{profileName}. */
export function notifyUser(services: Services, userId: number, content: string, link: string | null): Notification {
  const { db, live } = services;
  const timestamp = nowIso();
  const id = Number(
    db.prepare("INSERT INTO notifications (user_id, status, content, link, timestamp) VALUES (?, 'NEW', ?, ?, ?)").run(userId, content, link, timestamp)
      .lastInsertRowid,
  );
  const notification: Notification = { id, status: 'NEW', content, link, timestamp };
  const user = db.prepare('SELECT profile_name FROM users WHERE id = ?').get(userId) as { profile_name: string } | undefined;
  if (user) live.publish('notifications', user.profile_name, notification);
  return notification;
}
