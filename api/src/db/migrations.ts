/**
 * Schema migrations, written with Kysely's schema builder and run at start by its Migrator
 * (db/database.ts `migrate`), which records each by name in kysely_migration. Never edit a
 * shipped migration: add the next one.
 *
 * To add one, append `['0006_what_it_does', async (db, t) => { ... }]` to MIGRATIONS and add its
 * tables and columns to schema.ts (test/schema.test.ts fails until the two agree). The number
 * keeps the order: the Migrator runs them sorted by name and refuses a database that has applied
 * one sorting after a migration it has not. Where the engines word a column differently, take it
 * from `t` (see EngineTypes) rather than writing either engine's words.
 */
import { createHash } from 'node:crypto';
import type { ColumnBuilderCallback, Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import { sql } from 'kysely';
import { newLiveId } from '../live/logins.js';

export type Engine = 'sqlite' | 'postgres';

/** The column definitions the two engines word differently. */
export interface EngineTypes {
  /**
   * For an `integer` primary key that numbers itself: SQLite's INTEGER PRIMARY KEY (the rowid),
   * PostgreSQL's identity column (a serial would leave a sequence to own and grant).
   */
  autoId: ColumnBuilderCallback;
  /** An 8-byte float: SQLite's REAL is one, PostgreSQL's REAL has 4 bytes. */
  float: 'real' | 'double precision';
}

export function engineTypes(engine: Engine): EngineTypes {
  return engine === 'postgres'
    ? { autoId: (col) => col.generatedByDefaultAsIdentity().primaryKey(), float: 'double precision' }
    : { autoId: (col) => col.primaryKey(), float: 'real' };
}

// The database as a migration sees it: its tables are being made, so it has no row types.
type Step = (db: Kysely<unknown>, t: EngineTypes) => Promise<void>;

const notNull: ColumnBuilderCallback = (col) => col.notNull();
/** A CHECK that the column is one of `values`, as the first migrations wrote it. */
const oneOf = (column: string, values: readonly string[]): ColumnBuilderCallback => {
  const list = sql.join(values.map((value) => sql.lit(value)));
  return (col) => col.notNull().check(sql`${sql.ref(column)} IN (${list})`);
};

export const MIGRATIONS: readonly (readonly [name: string, up: Step])[] = [
  [
    '0001_initial',
    async (db, t) => {
      await db.schema
        .createTable('users')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('profile_name', 'text', (col) => col.notNull().unique())
        .addColumn('username', 'text', notNull)
        .addColumn('email', 'text', (col) => col.notNull().unique())
        .addColumn('password_hash', 'text', notNull)
        .addColumn('profile_picture', 'text')
        .addColumn('bio', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('created_at', 'text', notNull)
        .execute();
      await db.schema
        .createTable('user_roles')
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', oneOf('role', ['EVENT_ORGANIZER', 'MEDIA', 'DRIVER']))
        .addPrimaryKeyConstraint('user_roles_pkey', ['user_id', 'role'])
        .execute();
      await db.schema
        .createTable('sessions')
        .addColumn('token', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', notNull)
        .addColumn('expires_at', 'text', notNull)
        .execute();
      await db.schema
        .createTable('events')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('identifier', 'text', (col) => col.notNull().unique())
        .addColumn('name', 'text', notNull)
        .addColumn('description', 'text', notNull)
        .addColumn('location', 'text', notNull)
        .addColumn('starts_at', 'text', notNull)
        .addColumn('cover_path', 'text')
        .addColumn('organizer_id', 'integer', (col) => col.notNull().references('users.id'))
        .execute();
      await db.schema
        .createTable('content_items')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('identifier', 'text', (col) => col.notNull().unique())
        .addColumn('event_id', 'integer', (col) => col.references('events.id'))
        .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('name', 'text', notNull)
        .addColumn('content_type', 'text', notNull)
        .addColumn('width', 'integer', notNull)
        .addColumn('height', 'integer', notNull)
        .addColumn('file_path', 'text', notNull)
        .addColumn('filename', 'text', notNull)
        .addColumn('stream_path', 'text')
        .addColumn('thumbnail_path', 'text')
        .addColumn('for_sale', 'integer', (col) => col.notNull().defaultTo(1))
        .addColumn('price_cents', 'integer', notNull)
        .addColumn('created_at', 'text', notNull)
        .execute();
      await db.schema.createIndex('content_items_event').on('content_items').column('event_id').execute();
      await db.schema.createIndex('content_items_owner').on('content_items').column('owner_id').execute();
      await db.schema
        .createTable('posts')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('author_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('text', 'text', notNull)
        .addColumn('content_item_id', 'integer', (col) => col.references('content_items.id'))
        .addColumn('created_at', 'text', notNull)
        .execute();
      await db.schema
        .createTable('cart_items')
        .addColumn('owner_key', 'text', notNull)
        .addColumn('identifier', 'text', notNull)
        .addColumn('item_type', 'text', notNull)
        .addColumn('added_at', 'text', notNull)
        .addPrimaryKeyConstraint('cart_items_pkey', ['owner_key', 'identifier'])
        .execute();
      await db.schema
        .createTable('notifications')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('status', 'text', oneOf('status', ['NEW', 'UNREAD', 'READ']))
        .addColumn('content', 'text', notNull)
        .addColumn('link', 'text')
        .addColumn('timestamp', 'text', notNull)
        .execute();
      await db.schema
        .createIndex('notifications_user')
        .on('notifications')
        .columns(['user_id', 'timestamp desc', 'id desc'])
        .execute();
      await db.schema
        .createTable('chat_messages')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('from_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('to_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('content', 'text', notNull)
        .addColumn('timestamp', 'text', notNull)
        .execute();
      await db.schema
        .createIndex('chat_messages_pair')
        .on('chat_messages')
        .columns(['from_id', 'to_id', 'id'])
        .execute();
      await db.schema
        .createTable('message_notifications')
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('from_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('content', 'text', notNull)
        .addColumn('status', 'text', oneOf('status', ['NEW', 'UNREAD', 'READ']))
        .addColumn('timestamp', 'text', notNull)
        .addPrimaryKeyConstraint('message_notifications_pkey', ['user_id', 'from_id'])
        .execute();
      await db.schema
        .createTable('open_chats')
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('other_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('opened_at', 'text', notNull)
        .addPrimaryKeyConstraint('open_chats_pkey', ['user_id', 'other_id'])
        .execute();
      await db.schema
        .createTable('event_orders')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('order_id', 'text', (col) => col.notNull().unique())
        .addColumn('sharing_id', 'text', (col) => col.notNull().unique())
        .addColumn('client_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('photographer_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('event_name', 'text', notNull)
        .addColumn('event_date', 'text', notNull)
        .addColumn('location', 'text', notNull)
        .addColumn('package_name', 'text', notNull)
        .addColumn('public_status', 'text', notNull)
        .addColumn('info_status', 'text')
        .addColumn('deleted', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('requirement_info', 'text', notNull)
        .addColumn('discount_code', 'text')
        .addColumn('total_cents', 'integer', notNull)
        .addColumn('paid_out_at', 'text')
        .addColumn('created_at', 'text', notNull)
        .execute();
      await db.schema
        .createTable('order_targets')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('identifier', 'text', (col) => col.notNull().unique())
        .addColumn('order_id', 'integer', (col) => col.notNull().references('event_orders.id').onDelete('cascade'))
        .addColumn('uploader_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('file_name', 'text', notNull)
        .addColumn('content_type', 'text', notNull)
        .addColumn('description', 'text', notNull)
        .addColumn('upload_token', 'text', notNull)
        .addColumn('file_path', 'text')
        .addColumn('size_bytes', 'integer')
        .addColumn('created_at', 'text', notNull)
        .addColumn('uploaded_at', 'text')
        .execute();
      await db.schema
        .createTable('media_packages')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('name', 'text', notNull)
        .addColumn('description', 'text', notNull)
        .addColumn('price_cents', 'integer', notNull)
        .addColumn('photo_count', 'integer', notNull)
        .addColumn('video_minutes', 'integer', notNull)
        .execute();
      await db.schema
        .createTable('discount_codes')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('owner_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('code', 'text', notNull)
        .addColumn('percent_off', 'integer', notNull)
        .addColumn('expires_at', 'text')
        .addColumn('times_used', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createTable('contact_messages')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('name', 'text', notNull)
        .addColumn('email', 'text', notNull)
        .addColumn('subject', 'text', notNull)
        .addColumn('message', 'text', notNull)
        .addColumn('created_at', 'text', notNull)
        .execute();
    },
  ],
  // Broker logins issued to browser pages (getLiveCredentials): revoked with their session.
  [
    '0002_live_clients',
    async (db) => {
      await db.schema
        .createTable('live_clients')
        .addColumn('username', 'text', (col) => col.primaryKey())
        .addColumn('session_token', 'text', (col) => col.notNull().references('sessions.token').onDelete('cascade'))
        .addColumn('secret_hash', 'text', notNull)
        .addColumn('created_at', 'text', notNull)
        .execute();
      await db.schema.createIndex('live_clients_by_session').on('live_clients').column('session_token').execute();
    },
  ],
  // Real-user evidence per remote version (api/src/routes/rum.ts): a page load, anonymous (a random
  // id), with the page's vitals and who owned each; the remotes it rendered, at which version, and
  // how many errors each had there; the errors' kinds and messages. Times are the server's.
  [
    '0003_rum',
    async (db, t) => {
      await db.schema
        .createTable('rum_loads')
        .addColumn('load_id', 'text', (col) => col.primaryKey())
        .addColumn('received_at', 'text', notNull)
        .addColumn('lcp', t.float)
        .addColumn('lcp_owner', 'text')
        .addColumn('inp', t.float)
        .addColumn('inp_owner', 'text')
        .addColumn('cls', t.float)
        .addColumn('cls_owner', 'text')
        .addColumn('ttfb', t.float)
        .addColumn('errors', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('rum_loads_received').on('rum_loads').column('received_at').execute();
      await db.schema
        .createTable('rum_load_remotes')
        .addColumn('load_id', 'text', (col) => col.notNull().references('rum_loads.load_id').onDelete('cascade'))
        .addColumn('remote', 'text', notNull)
        .addColumn('version', 'text', notNull)
        .addColumn('errors', 'integer', (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('rum_load_remotes_pkey', ['load_id', 'remote'])
        .execute();
      await db.schema
        .createIndex('rum_load_remotes_version')
        .on('rum_load_remotes')
        .columns(['remote', 'version'])
        .execute();
      await db.schema
        .createTable('rum_errors')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('load_id', 'text', (col) => col.notNull().references('rum_loads.load_id').onDelete('cascade'))
        .addColumn('owner', 'text', notNull)
        .addColumn('version', 'text')
        .addColumn('kind', 'text', notNull)
        .addColumn('message', 'text', notNull)
        .addColumn('received_at', 'text', notNull)
        .execute();
      await db.schema.createIndex('rum_errors_load').on('rum_errors').column('load_id').execute();
    },
  ],
  // Failed logins (auth/loginThrottle.ts), kept here rather than in a process so every instance
  // counts a client's failures together; rows older than the throttle's window are swept.
  [
    '0004_login_failures',
    async (db, t) => {
      await db.schema
        .createTable('login_failures')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('throttle_key', 'text', notNull)
        .addColumn('failed_at', 'text', notNull)
        .execute();
      await db.schema
        .createIndex('login_failures_key')
        .on('login_failures')
        .columns(['throttle_key', 'failed_at'])
        .execute();
      await db.schema.createIndex('login_failures_time').on('login_failures').column('failed_at').execute();
    },
  ],
  // Guarantees across instances (api/README.md "Guarantees"): the stored answer of each
  // Idempotency-Key (http/idempotency.ts), a fixed-window counter per client for the beacon limit
  // (rum/rateWindow.ts), and named leases so one instance at a time runs the periodic sweep.
  [
    '0005_guarantees',
    async (db) => {
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('scope', 'text', notNull)
        .addColumn('idempotency_key', 'text', notNull)
        .addColumn('fingerprint', 'text', notNull)
        .addColumn('status', 'integer')
        .addColumn('response', 'text')
        .addColumn('locked_until', 'text', notNull)
        .addColumn('created_at', 'text', notNull)
        .addPrimaryKeyConstraint('idempotency_keys_pkey', ['scope', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
      await db.schema
        .createTable('rate_windows')
        .addColumn('rate_key', 'text', notNull)
        .addColumn('window_start', 'text', notNull)
        .addColumn('hits', 'integer', notNull)
        .addPrimaryKeyConstraint('rate_windows_pkey', ['rate_key', 'window_start'])
        .execute();
      await db.schema.createIndex('rate_windows_start').on('rate_windows').column('window_start').execute();
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('holder', 'text', notNull)
        .addColumn('until', 'text', notNull)
        .execute();
    },
  ],
  // Evidence nobody can forge (issue 39, item 4; routes/rum.ts): how many beacons each page load
  // has sent, and whether it is closed (its final beacon came, or its last allowed one), after
  // which its token is refused. 0/1 rather than a boolean: the same word on both engines.
  [
    '0006_rum_closed_loads',
    async (db) => {
      await db.schema
        .alterTable('rum_loads')
        .addColumn('beacons', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('rum_loads')
        .addColumn('closed', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    },
  ],
  // Where each error was thrown in its remote's files (issue 39, item 6): the beacon's frame, a
  // path with its line and column, so a rollback can name its top error and where it comes from.
  // Null for errors without one (a failed load, a timeout) and for those stored before.
  [
    '0007_rum_error_frames',
    async (db) => {
      await db.schema.alterTable('rum_errors').addColumn('frame', 'text').execute();
    },
  ],
  // The live outbox (issue 40, item 3; live/relay.ts): a live message is written in the
  // transaction of what it announces and published by the relay after commit, so a rollback
  // publishes nothing and a broker that is down delays messages instead of losing them. The payload
  // is the message's JSON as it goes out; sent_at stays null until the broker has acknowledged it;
  // attempts and next_attempt_at space out the retries. Unsent rows are read in id order (the
  // partial index); sent ones are pruned by the sweep (the sent_at index).
  [
    '0008_live_outbox',
    async (db, t) => {
      await db.schema
        .createTable('live_outbox')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('kind', 'text', oneOf('kind', ['notifications', 'chatNotifications']))
        .addColumn('profile_name', 'text', notNull)
        .addColumn('payload', 'text', notNull)
        .addColumn('created_at', 'text', notNull)
        .addColumn('sent_at', 'text')
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', notNull)
        .execute();
      await db.schema
        .createIndex('live_outbox_unsent')
        .on('live_outbox')
        .column('id')
        .where(sql.ref('sent_at'), 'is', null)
        .execute();
      await db.schema.createIndex('live_outbox_sent').on('live_outbox').column('sent_at').execute();
    },
  ],
  // Broker logins the API signs instead of storing (issue 40, item 2; live/logins.ts): each session
  // gets a live id, which its pages' logins name (the token is a secret cookie and must not reach
  // the broker's connection lists); the stored logins go. Sessions made before get one here. And
  // an index for the per-second search of expired sessions.
  [
    '0009_session_live_ids',
    async (db) => {
      await db.schema.alterTable('sessions').addColumn('live_id', 'text').execute();
      const { rows } = await sql<{ token: string }>`select token from sessions`.execute(db);
      for (const { token } of rows)
        await sql`update sessions set live_id = ${newLiveId()} where token = ${token}`.execute(db);
      await db.schema.createIndex('sessions_by_live_id').on('sessions').column('live_id').unique().execute();
      // Every instance looks for sessions past their expiry each second (sweep.ts endExpiredSessions).
      await db.schema.createIndex('sessions_by_expiry').on('sessions').column('expires_at').execute();
      await db.schema.dropTable('live_clients').execute();
    },
  ],
  // The media pipeline (issue 37; media/): an order target's file is kept as it came (private,
  // downloadable by the order's parties) and served only as what the media job made of it. A
  // target is 'waiting' for its file, 'processing' once it came, then 'ready' or 'failed' with the
  // reason the uploader sees. Targets uploaded before were checked by their leading bytes and are
  // served as they are ('ready' without derivatives). media_jobs is the job queue of the SQLite
  // backend (media/tableQueue.ts; PostgreSQL's is pg-boss, in its own schema).
  [
    '0010_media_pipeline',
    async (db, t) => {
      await db.schema
        .alterTable('order_targets')
        // A default, since SQLite adds no NOT NULL column without one; every insert names its state.
        .addColumn('state', 'text', (col) =>
          col
            .notNull()
            .defaultTo('waiting')
            .check(sql`state IN ('waiting', 'processing', 'ready', 'failed')`),
        )
        .execute();
      await db.schema.alterTable('order_targets').addColumn('failure_reason', 'text').execute();
      await db.schema.alterTable('order_targets').addColumn('media', 'text').execute();
      await sql`update order_targets set state = 'ready' where uploaded_at is not null`.execute(db);
      await db.schema
        .createTable('media_jobs')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('queue', 'text', notNull)
        .addColumn('singleton_key', 'text', (col) => col.notNull().unique())
        .addColumn('payload', 'text', notNull)
        .addColumn('state', 'text', oneOf('state', ['created', 'active', 'failed']))
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('start_after', 'text', notNull)
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', notNull)
        .execute();
      await db.schema.createIndex('media_jobs_due').on('media_jobs').columns(['state', 'start_after']).execute();
    },
  ],
  // Public media through the same pipeline (issue 37, item 4): what the media job made of an
  // event's photos and of its cover (media/derivatives.ts TargetMedia, as JSON); null until then.
  [
    '0011_public_media',
    async (db) => {
      await db.schema.alterTable('content_items').addColumn('media', 'text').execute();
      await db.schema.alterTable('events').addColumn('cover_media', 'text').execute();
    },
  ],
  // Profile pictures through the same pipeline (issue 37, item 3): the source a user's picture is
  // made from, waiting for its media job (never served); profile_picture names what is served,
  // null until the job made it.
  [
    '0012_avatar_sources',
    async (db) => {
      await db.schema.alterTable('users').addColumn('profile_picture_source', 'text').execute();
    },
  ],
  // Buying content: a content item's currency; a code's use limit and switch; the code a cart
  // carries; purchases (checkout's priced snapshot, one open per cart), their lines, what each
  // buyer owns, and the payment events acted on (each once).
  [
    '0013_purchases',
    async (db, t) => {
      await db.schema
        .alterTable('content_items')
        .addColumn('currency', 'text', (col) => col.notNull().defaultTo('USD'))
        .execute();
      await db.schema.alterTable('discount_codes').addColumn('max_uses', 'integer').execute();
      await db.schema
        .alterTable('discount_codes')
        .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
        .execute();
      await db.schema
        .createTable('cart_discount_codes')
        .addColumn('owner_key', 'text', (col) => col.primaryKey())
        .addColumn('code_id', 'integer', (col) => col.notNull().references('discount_codes.id').onDelete('cascade'))
        .addColumn('applied_at', 'text', notNull)
        .execute();
      await db.schema
        .createTable('purchases')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('purchase_number', 'text', (col) => col.notNull().unique())
        .addColumn('buyer_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('open_key', 'text', (col) => col.unique())
        .addColumn('status', 'text', oneOf('status', ['open', 'paid', 'expired', 'flagged']))
        .addColumn('currency', 'text', notNull)
        .addColumn('subtotal_cents', 'integer', notNull)
        .addColumn('discount_cents', 'integer', notNull)
        .addColumn('total_cents', 'integer', notNull)
        .addColumn('discount_code', 'text')
        .addColumn('discount_code_id', 'integer')
        .addColumn('provider', 'text', notNull)
        .addColumn('provider_session', 'text')
        .addColumn('provider_url', 'text')
        .addColumn('payment_reference', 'text')
        .addColumn('flag_reason', 'text')
        .addColumn('return_origin', 'text', notNull)
        .addColumn('created_at', 'text', notNull)
        .addColumn('expires_at', 'text', notNull)
        .addColumn('paid_at', 'text')
        .execute();
      await db.schema.createIndex('purchases_buyer').on('purchases').columns(['buyer_id', 'created_at']).execute();
      await db.schema.createIndex('purchases_due').on('purchases').columns(['status', 'expires_at']).execute();
      await db.schema
        .createTable('purchase_items')
        .addColumn('purchase_id', 'integer', (col) => col.notNull().references('purchases.id').onDelete('cascade'))
        .addColumn('content_identifier', 'text', notNull)
        .addColumn('seller_id', 'integer', notNull)
        .addColumn('name', 'text', notNull)
        .addColumn('price_cents', 'integer', notNull)
        .addColumn('discount_cents', 'integer', notNull)
        .addColumn('amount_cents', 'integer', notNull)
        .addPrimaryKeyConstraint('purchase_items_pk', ['purchase_id', 'content_identifier'])
        .execute();
      await db.schema.createIndex('purchase_items_seller').on('purchase_items').column('seller_id').execute();
      await db.schema
        .createTable('entitlements')
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('content_identifier', 'text', notNull)
        .addColumn('purchase_id', 'integer', notNull)
        .addColumn('granted_at', 'text', notNull)
        .addPrimaryKeyConstraint('entitlements_pk', ['user_id', 'content_identifier'])
        .execute();
      await db.schema
        .createTable('payment_events')
        .addColumn('event_id', 'text', (col) => col.primaryKey())
        .addColumn('type', 'text', notNull)
        .addColumn('purchase_number', 'text')
        .addColumn('outcome', 'text', notNull)
        .addColumn('received_at', 'text', notNull)
        .execute();
    },
  ],
  // The order's lifecycle: the photographer's quote, what was asked of the client and answered,
  // and why an order was declined.
  [
    '0014_order_lifecycle',
    async (db) => {
      for (const column of ['quote', 'requirements_request', 'requirements_answer', 'decline_reason']) {
        await db.schema.alterTable('event_orders').addColumn(column, 'text').execute();
      }
    },
  ],
  // Sellers manage their offers: a package's hours and whether it is still offered, and a code
  // that takes an amount off instead of a percentage (percent_off 0 then). A buyer types a code
  // without its seller, so a code's text names one code whatever its case.
  [
    '0015_seller_offers',
    async (db) => {
      await db.schema
        .alterTable('media_packages')
        .addColumn('hours', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('media_packages')
        .addColumn('active', 'integer', (col) => col.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('discount_codes').addColumn('amount_off_cents', 'integer').execute();
      await db.schema
        .createIndex('discount_codes_code')
        .on('discount_codes')
        .unique()
        .expression(sql`upper(code)`)
        .execute();
    },
  ],
  // Organizers manage their events: an event is published (listed, searchable, its page public)
  // or a draft only its organizer sees; every event before this was published. An uploaded
  // cover's source waits for its media job (never served; null after), as a profile picture's does.
  [
    '0016_event_publishing',
    async (db) => {
      await db.schema
        .alterTable('events')
        .addColumn('published', 'integer', (col) => col.notNull().defaultTo(1))
        .execute();
      await db.schema.alterTable('events').addColumn('cover_source', 'text').execute();
    },
  ],
  // Accounts people can recover, and mail for real (mail/): the mail outbox (a mail is a row written
  // in the transaction of what causes it, rendered, and sent after commit by a sender that takes it
  // for a lease, so a sender that dies lets it go and it is sent again: at least once); password
  // reset links (only the token's sha256 is stored; single use, 30 minutes); each session's device
  // and when it was last seen (the settings' list of sessions); and which optional mails a user
  // wants (0/1, on by default).
  [
    '0017_accounts_mail',
    async (db, t) => {
      await db.schema
        .createTable('mail_outbox')
        .addColumn('id', 'integer', t.autoId)
        .addColumn('kind', 'text', oneOf('kind', ['passwordReset', 'signIn', 'receipt', 'orderUpdate']))
        .addColumn('to_address', 'text', notNull)
        .addColumn('subject', 'text', notNull)
        .addColumn('text_body', 'text', notNull)
        .addColumn('html_body', 'text', notNull)
        .addColumn('created_at', 'text', notNull)
        .addColumn('sent_at', 'text')
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text', notNull)
        .addColumn('last_error', 'text')
        .execute();
      await db.schema
        .createIndex('mail_outbox_due')
        .on('mail_outbox')
        .column('next_attempt_at')
        .where(sql.ref('sent_at'), 'is', null)
        .execute();
      await db.schema.createIndex('mail_outbox_sent').on('mail_outbox').column('sent_at').execute();
      await db.schema
        .createTable('password_resets')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'text', notNull)
        .addColumn('expires_at', 'text', notNull)
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
      await db.schema.createIndex('password_resets_expiry').on('password_resets').column('expires_at').execute();
      await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
      await db.schema.alterTable('sessions').addColumn('last_seen_at', 'text').execute();
      await db.schema.createIndex('sessions_by_user').on('sessions').column('user_id').execute();
      for (const column of ['mail_sign_in', 'mail_receipts', 'mail_order_updates'])
        await db.schema
          .alterTable('users')
          .addColumn(column, 'integer', (col) => col.notNull().defaultTo(1))
          .execute();
    },
  ],
  // Mail sent once by whoever holds it: the sender that took a mail writes its lease's id on the
  // row, and only that lease marks it sent or failed (a sender whose lease ran out finds its mark
  // refused); a mail the server refused for good, or that kept failing past the cap, is given up
  // (failed_at) with the reason in last_error, and no sender takes it again.
  [
    '0018_mail_outbox_leases',
    async (db) => {
      await db.schema.alterTable('mail_outbox').addColumn('lease_id', 'text').execute();
      await db.schema.alterTable('mail_outbox').addColumn('failed_at', 'text').execute();
    },
  ],
  // No secret at rest: a session row keeps the sha256 of its token (base64url), never the token,
  // which only the browser's cookie holds. Existing sessions are hashed in place, so nobody is
  // logged out (the list of sessions names each by a prefix of that same hash, so their ids stay).
  // Idempotency keys kept so far go: their fingerprints were plain hashes with passwords in them,
  // and their answers kept login cookies; a retry within their day runs again instead.
  [
    '0019_hashed_tokens',
    async (db) => {
      const { rows } = await sql<{ token: string }>`select token from sessions`.execute(db);
      for (const { token } of rows) {
        const key = createHash('sha256').update(token).digest('base64url');
        await sql`update sessions set token = ${key} where token = ${token}`.execute(db);
      }
      await sql`delete from idempotency_keys`.execute(db);
    },
  ],
  // Release evidence by browser (routes/rum.ts): the random id its page server gave the browser
  // (platform-browser cookie), as the load's token signs it. A canary is judged per browser, each
  // by its first load of a version, so that a few browsers loading often weigh as few.
  [
    '0020_rum_browsers',
    async (db) => {
      await db.schema.alterTable('rum_loads').addColumn('browser', 'text').execute();
      await db.schema.createIndex('rum_loads_browser').on('rum_loads').column('browser').execute();
    },
  ],
  // The page server's render a load's page came from (repositories/rum.ts): nginx serves a kept
  // page to every visitor of its address for a few seconds, and a canary is judged on one load
  // per render, so that the copies of one failed render are not a burst of failures.
  [
    '0021_rum_load_renders',
    async (db) => {
      await db.schema.alterTable('rum_loads').addColumn('render', 'text').execute();
    },
  ],
];

/** The migrations for Kysely's Migrator, from the list above rather than from files. */
export function migrationProvider(engine: Engine): MigrationProvider {
  const t = engineTypes(engine);
  return {
    async getMigrations() {
      const migrations: Record<string, Migration> = {};
      let previous = '';
      for (const [name, up] of MIGRATIONS) {
        // The Migrator orders by name: one appended with a smaller number would run out of turn.
        if (name <= previous) throw new Error(`migration ${name} must sort after ${previous}`);
        previous = name;
        migrations[name] = { up: (db) => up(db, t) };
      }
      return migrations;
    },
  };
}
