/**
 * Schema migrations, applied in order and recorded in schema_migrations. Never edit a shipped
 * migration: add the next one.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    profile_name TEXT NOT NULL UNIQUE,
    username TEXT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    profile_picture TEXT,
    bio TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
  );
  CREATE TABLE user_roles (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('EVENT_ORGANIZER', 'MEDIA', 'DRIVER')),
    PRIMARY KEY (user_id, role)
  );
  CREATE TABLE sessions (
    token TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  );
  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    identifier TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    location TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    cover_path TEXT,
    organizer_id INTEGER NOT NULL REFERENCES users(id)
  );
  CREATE TABLE content_items (
    id INTEGER PRIMARY KEY,
    identifier TEXT NOT NULL UNIQUE,
    event_id INTEGER REFERENCES events(id),
    owner_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    file_path TEXT NOT NULL,
    filename TEXT NOT NULL,
    stream_path TEXT,
    thumbnail_path TEXT,
    for_sale INTEGER NOT NULL DEFAULT 1,
    price_cents INTEGER NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX content_items_event ON content_items(event_id);
  CREATE INDEX content_items_owner ON content_items(owner_id);
  CREATE TABLE posts (
    id INTEGER PRIMARY KEY,
    author_id INTEGER NOT NULL REFERENCES users(id),
    text TEXT NOT NULL,
    content_item_id INTEGER REFERENCES content_items(id),
    created_at TEXT NOT NULL
  );
  CREATE TABLE cart_items (
    owner_key TEXT NOT NULL,
    identifier TEXT NOT NULL,
    item_type TEXT NOT NULL,
    added_at TEXT NOT NULL,
    PRIMARY KEY (owner_key, identifier)
  );
  CREATE TABLE notifications (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('NEW', 'UNREAD', 'READ')),
    content TEXT NOT NULL,
    link TEXT,
    timestamp TEXT NOT NULL
  );
  CREATE INDEX notifications_user ON notifications(user_id, timestamp DESC, id DESC);
  CREATE TABLE chat_messages (
    id INTEGER PRIMARY KEY,
    from_id INTEGER NOT NULL REFERENCES users(id),
    to_id INTEGER NOT NULL REFERENCES users(id),
    content TEXT NOT NULL,
    timestamp TEXT NOT NULL
  );
  CREATE INDEX chat_messages_pair ON chat_messages(from_id, to_id, id);
  CREATE TABLE message_notifications (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    from_id INTEGER NOT NULL REFERENCES users(id),
    content TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('NEW', 'UNREAD', 'READ')),
    timestamp TEXT NOT NULL,
    PRIMARY KEY (user_id, from_id)
  );
  CREATE TABLE open_chats (
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    other_id INTEGER NOT NULL REFERENCES users(id),
    opened_at TEXT NOT NULL,
    PRIMARY KEY (user_id, other_id)
  );
  CREATE TABLE event_orders (
    id INTEGER PRIMARY KEY,
    order_id TEXT NOT NULL UNIQUE,
    sharing_id TEXT NOT NULL UNIQUE,
    client_id INTEGER NOT NULL REFERENCES users(id),
    photographer_id INTEGER NOT NULL REFERENCES users(id),
    event_name TEXT NOT NULL,
    event_date TEXT NOT NULL,
    location TEXT NOT NULL,
    package_name TEXT NOT NULL,
    public_status TEXT NOT NULL,
    info_status TEXT,
    deleted INTEGER NOT NULL DEFAULT 0,
    requirement_info TEXT NOT NULL,
    discount_code TEXT,
    total_cents INTEGER NOT NULL,
    paid_out_at TEXT,
    created_at TEXT NOT NULL
  );
  CREATE TABLE order_targets (
    id INTEGER PRIMARY KEY,
    identifier TEXT NOT NULL UNIQUE,
    order_id INTEGER NOT NULL REFERENCES event_orders(id) ON DELETE CASCADE,
    uploader_id INTEGER NOT NULL REFERENCES users(id),
    file_name TEXT NOT NULL,
    content_type TEXT NOT NULL,
    description TEXT NOT NULL,
    upload_token TEXT NOT NULL,
    file_path TEXT,
    size_bytes INTEGER,
    created_at TEXT NOT NULL,
    uploaded_at TEXT
  );
  CREATE TABLE media_packages (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES users(id),
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    price_cents INTEGER NOT NULL,
    photo_count INTEGER NOT NULL,
    video_minutes INTEGER NOT NULL
  );
  CREATE TABLE discount_codes (
    id INTEGER PRIMARY KEY,
    owner_id INTEGER NOT NULL REFERENCES users(id),
    code TEXT NOT NULL,
    percent_off INTEGER NOT NULL,
    expires_at TEXT,
    times_used INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE contact_messages (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    subject TEXT NOT NULL,
    message TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  // Broker logins issued to browser pages (getLiveCredentials): revoked with their session.
  `
  CREATE TABLE live_clients (
    username TEXT PRIMARY KEY,
    session_token TEXT NOT NULL REFERENCES sessions(token) ON DELETE CASCADE,
    secret_hash TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX live_clients_by_session ON live_clients(session_token);
  `,
  // Real-user evidence per remote version (api/src/routes/rum.ts): a page load, anonymous (a random
  // id), with the page's vitals and who owned each; the remotes it rendered, at which version, and
  // how many errors each had there; the errors' kinds and messages. Times are the server's.
  `
  CREATE TABLE rum_loads (
    load_id TEXT PRIMARY KEY,
    received_at TEXT NOT NULL,
    lcp REAL, lcp_owner TEXT,
    inp REAL, inp_owner TEXT,
    cls REAL, cls_owner TEXT,
    ttfb REAL,
    errors INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX rum_loads_received ON rum_loads(received_at);
  CREATE TABLE rum_load_remotes (
    load_id TEXT NOT NULL REFERENCES rum_loads(load_id) ON DELETE CASCADE,
    remote TEXT NOT NULL,
    version TEXT NOT NULL,
    errors INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (load_id, remote)
  );
  CREATE INDEX rum_load_remotes_version ON rum_load_remotes(remote, version);
  CREATE TABLE rum_errors (
    id INTEGER PRIMARY KEY,
    load_id TEXT NOT NULL REFERENCES rum_loads(load_id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    version TEXT,
    kind TEXT NOT NULL,
    message TEXT NOT NULL,
    received_at TEXT NOT NULL
  );
  CREATE INDEX rum_errors_load ON rum_errors(load_id);
  `,
];
