/**
 * The tables as the query builder sees them, typed by hand: db/migrations.ts creates them and
 * test/schema.test.ts holds the two together (tables, columns, types, nullability, defaults).
 * Timestamps are ISO 8601 UTC text on both engines, so they sort as time does and compare the
 * same everywhere; flags are 0/1 integers, as SQLite has no booleans.
 */
import type { Generated } from 'kysely';
import type {
  EventOrderStatus,
  NotificationStatus,
  OrderInfoStatus,
  PurchaseStatus,
  Role,
  TargetState,
} from '@marketplace/shared/contract';

export interface Schema {
  users: {
    id: Generated<number>;
    profile_name: string;
    username: string;
    email: string;
    password_hash: string;
    /** What is served as the user's picture: a file the media job made (or a seeded one); null for none. */
    profile_picture: string | null;
    /** The picture's source while its media job has not made it, never served (0012); null after. */
    profile_picture_source: string | null;
    bio: Generated<string>;
    created_at: string;
    /** Which optional mails the user wants (0017): 1 on, 0 off. */
    mail_sign_in: Generated<number>;
    mail_receipts: Generated<number>;
    mail_order_updates: Generated<number>;
  };
  user_roles: { user_id: number; role: Role };
  sessions: {
    token: string;
    user_id: number;
    created_at: string;
    expires_at: string;
    live_id: string | null;
    /** The browser's User-Agent at login (0017), for the settings' list of sessions. */
    user_agent: string | null;
    /** When a request last came with it, at most every few minutes (0017); null: not since login. */
    last_seen_at: string | null;
  };
  events: {
    id: Generated<number>;
    identifier: string;
    name: string;
    description: string;
    location: string;
    starts_at: string;
    cover_path: string | null;
    organizer_id: number;
    /** What the media job made of the cover, as JSON (0011); null before. */
    cover_media: string | null;
    /** 1: listed and public; 0: a draft only its organizer sees (0016). */
    published: Generated<number>;
    /** An uploaded cover's source while its media job has not made it, never served (0016); null after. */
    cover_source: string | null;
  };
  content_items: {
    id: Generated<number>;
    identifier: string;
    event_id: number | null;
    owner_id: number;
    name: string;
    content_type: string;
    width: number;
    height: number;
    file_path: string;
    filename: string;
    stream_path: string | null;
    thumbnail_path: string | null;
    for_sale: Generated<number>;
    price_cents: number;
    created_at: string;
    /** What the media job made of a photo, as JSON (0011); null before, and for videos. */
    media: string | null;
    /** The currency of price_cents (0013). */
    currency: Generated<string>;
  };
  posts: { id: Generated<number>; author_id: number; text: string; content_item_id: number | null; created_at: string };
  cart_items: { owner_key: string; identifier: string; item_type: string; added_at: string };
  notifications: {
    id: Generated<number>;
    user_id: number;
    status: NotificationStatus;
    content: string;
    link: string | null;
    timestamp: string;
  };
  chat_messages: { id: Generated<number>; from_id: number; to_id: number; content: string; timestamp: string };
  message_notifications: {
    user_id: number;
    from_id: number;
    content: string;
    status: NotificationStatus;
    timestamp: string;
  };
  open_chats: { user_id: number; other_id: number; opened_at: string };
  event_orders: {
    id: Generated<number>;
    order_id: string;
    sharing_id: string;
    client_id: number;
    photographer_id: number;
    event_name: string;
    event_date: string;
    location: string;
    package_name: string;
    public_status: EventOrderStatus;
    info_status: OrderInfoStatus | null;
    deleted: Generated<number>;
    requirement_info: string;
    discount_code: string | null;
    total_cents: number;
    paid_out_at: string | null;
    created_at: string;
    /** The photographer's last quote, as JSON (OrderQuote) (0014). */
    quote: string | null;
    /** What the photographer asked the client for, and the client's answer (0014). */
    requirements_request: string | null;
    requirements_answer: string | null;
    /** Why the photographer declined (0014). */
    decline_reason: string | null;
  };
  order_targets: {
    id: Generated<number>;
    identifier: string;
    order_id: number;
    uploader_id: number;
    file_name: string;
    content_type: string;
    description: string;
    upload_token: string;
    file_path: string | null;
    size_bytes: number | null;
    created_at: string;
    uploaded_at: string | null;
    /** Where its file is in the media pipeline (0010). */
    state: Generated<TargetState>;
    /** Why the file was refused or could not be processed, for the uploader (state 'failed'). */
    failure_reason: string | null;
    /** What the media job made of it, as JSON (media/derivatives.ts TargetMedia); null before, and for targets uploaded before 0010. */
    media: string | null;
  };
  media_packages: {
    id: Generated<number>;
    owner_id: number;
    name: string;
    description: string;
    price_cents: number;
    photo_count: number;
    video_minutes: number;
    /** Hours of coverage (0015). */
    hours: Generated<number>;
    /** 0 once its owner withdrew it: no longer offered or bookable (0015). */
    active: Generated<number>;
  };
  discount_codes: {
    id: Generated<number>;
    owner_id: number;
    code: string;
    percent_off: number;
    expires_at: string | null;
    times_used: Generated<number>;
    /** Paid purchases it may take off (0013); null: no limit. */
    max_uses: number | null;
    /** 0 once its owner switched it off (0013). */
    active: Generated<number>;
    /** What an amount code takes off, in cents (0015); null for a percent code, whose percent_off is 1-100 (0 here). */
    amount_off_cents: number | null;
  };
  /** The code a cart carries (0013): one per cart, checked again at checkout. */
  cart_discount_codes: { owner_key: string; code_id: number; applied_at: string };
  purchases: {
    id: Generated<number>;
    purchase_number: string;
    buyer_id: number;
    /** The cart's key while the purchase is open (one open purchase per cart); null after. */
    open_key: string | null;
    status: PurchaseStatus;
    currency: string;
    subtotal_cents: number;
    discount_cents: number;
    total_cents: number;
    discount_code: string | null;
    discount_code_id: number | null;
    provider: string;
    /** The provider's payment session (a Stripe Checkout Session id), once the buyer went to pay. */
    provider_session: string | null;
    provider_url: string | null;
    payment_reference: string | null;
    /** Why a payment did not match the purchase (status flagged). */
    flag_reason: string | null;
    /** The shell's origin the buyer checked out from: the receipt is shown there. */
    return_origin: string;
    created_at: string;
    expires_at: string;
    paid_at: string | null;
  };
  purchase_items: {
    purchase_id: number;
    content_identifier: string;
    seller_id: number;
    name: string;
    price_cents: number;
    discount_cents: number;
    amount_cents: number;
  };
  entitlements: { user_id: number; content_identifier: string; purchase_id: number; granted_at: string };
  /** Every payment event acted on, by the provider's event id: a replay is recognised. */
  payment_events: {
    event_id: string;
    type: string;
    purchase_number: string | null;
    outcome: string;
    received_at: string;
  };
  contact_messages: {
    id: Generated<number>;
    name: string;
    email: string;
    subject: string;
    message: string;
    created_at: string;
  };
  rum_loads: {
    load_id: string;
    received_at: string;
    lcp: number | null;
    lcp_owner: string | null;
    inp: number | null;
    inp_owner: string | null;
    cls: number | null;
    cls_owner: string | null;
    ttfb: number | null;
    errors: Generated<number>;
    /** Beacons received for the load (0006). */
    beacons: Generated<number>;
    /** 1 once the load is closed: later beacons of it are refused (0006). */
    closed: Generated<number>;
    /** The browser's id its token signs; null for loads recorded before it was (0020). */
    browser: string | null;
    /** The page server's render the page came from; null for a page rendered in the browser (0021). */
    render: string | null;
  };
  rum_load_remotes: { load_id: string; remote: string; version: string; errors: Generated<number> };
  rum_errors: {
    id: Generated<number>;
    load_id: string;
    owner: string;
    version: string | null;
    kind: string;
    message: string;
    received_at: string;
    /** Where it was thrown in its owner's files, `path:line:column`; null without one (0007). */
    frame: string | null;
  };
  login_failures: { id: Generated<number>; throttle_key: string; failed_at: string };
  idempotency_keys: {
    scope: string;
    idempotency_key: string;
    fingerprint: string;
    status: number | null;
    response: string | null;
    locked_until: string;
    created_at: string;
  };
  rate_windows: { rate_key: string; window_start: string; hits: number };
  leases: { name: string; holder: string; until: string };
  /** Live messages waiting for the relay, and those it sent, until the sweep prunes them (0008). */
  /** The SQLite backend's media jobs (media/tableQueue.ts, 0010): due, leased, or dead-lettered; a finished job's row goes. */
  media_jobs: {
    id: Generated<number>;
    queue: string;
    /** One job per key at a time: sending it again while it waits or runs changes nothing. */
    singleton_key: string;
    payload: string;
    state: 'created' | 'active' | 'failed';
    attempts: Generated<number>;
    /** Not taken before this (a retry's backoff). */
    start_after: string;
    /** While active: the worker's lease; past it another worker takes the job again. */
    locked_until: string | null;
    last_error: string | null;
    created_at: string;
  };
  live_outbox: {
    id: Generated<number>;
    kind: 'notifications' | 'chatNotifications';
    profile_name: string;
    /** The message's JSON, as published. */
    payload: string;
    created_at: string;
    /** When the broker acknowledged it; null until then. */
    sent_at: string | null;
    /** Publishes that failed. */
    attempts: Generated<number>;
    /** Not tried again before this. */
    next_attempt_at: string;
  };
  /** Mail waiting for the sender, and what it sent, until the sweep prunes it (0017, mail/sender.ts). */
  mail_outbox: {
    id: Generated<number>;
    kind: 'passwordReset' | 'signIn' | 'receipt' | 'orderUpdate';
    to_address: string;
    subject: string;
    text_body: string;
    html_body: string;
    created_at: string;
    /** When the SMTP server accepted it; null until then. */
    sent_at: string | null;
    /** Sends that failed. */
    attempts: Generated<number>;
    /** Not tried before this: a retry's back-off, or a sender's lease while it sends. */
    next_attempt_at: string;
    last_error: string | null;
    /** The lease of the sender that last took it (0018): only that lease marks it sent or failed. */
    lease_id: string | null;
    /** When it was given up (refused for good, or failing past the cap; 0018); null while it may be sent. */
    failed_at: string | null;
  };
  /** Password reset links (0017): the token's sha256 only; single use, until expires_at. */
  password_resets: {
    token_hash: string;
    user_id: number;
    created_at: string;
    expires_at: string;
    used_at: string | null;
  };
}
