import type { ResponsiveImage } from './entities.js';

/** Event orders: SPEC.md section 3 "Event order details response", section 4 "Event order status". */

/** Steps of the progress bar, in order. APPROVED and DECLINED are states with no step of their own. */
export const EVENT_ORDER_STEPS = [
  'ORDER_REQUEST',
  'REQUIREMENTS_NEEDED',
  'AWAITING_APPROVAL',
  'PENDING_FULFILLMENTS',
  'DELIVERED',
] as const;
export type EventOrderStep = (typeof EVENT_ORDER_STEPS)[number];

export const EVENT_ORDER_STATUSES = [
  'ORDER_REQUEST',
  'REQUIREMENTS_NEEDED',
  'AWAITING_APPROVAL',
  'APPROVED',
  'DECLINED',
  'PENDING_FULFILLMENTS',
  'DELIVERED',
] as const;
export type EventOrderStatus = (typeof EVENT_ORDER_STATUSES)[number];

export const STATUS_TYPES = ['COMPLETED', 'CURRENT', 'LOCKED'] as const;
export type StatusType = (typeof STATUS_TYPES)[number];

/** Order-info status; absent means AWAITING_APPROVAL. CANCELLED is set by a client's cancel. */
export const ORDER_INFO_STATUSES = ['AWAITING_APPROVAL', 'SECURED', 'PUBLISHED', 'CANCELLED'] as const;
export type OrderInfoStatus = (typeof ORDER_INFO_STATUSES)[number];

export const EVENT_ORDER_VIEWS = ['client', 'sharedUser', 'photographer'] as const;
export type EventOrderView = (typeof EVENT_ORDER_VIEWS)[number];

/**
 * One entry of the details' `statuses` list. The spec names only the fields, so a server may list
 * any status here, APPROVED and DECLINED included; the progress bar draws the steps among them.
 */
export interface ProgressStatus {
  statusName: EventOrderStatus;
  statusType: StatusType;
}

export const isStep = (status: EventOrderStatus): status is EventOrderStep =>
  (EVENT_ORDER_STEPS as readonly string[]).includes(status);

/**
 * What a party may do to an order, each a transition of the API's one table (api/src/domain/orders.ts):
 * the photographer asks for requirements, sends a quote, declines or delivers; the client answers,
 * approves the quote, pays it or cancels. Paying is offered to the client, who pays through the
 * payment provider (payEventOrder); the provider's confirmation is what moves the order on.
 */
export const ORDER_ACTIONS = [
  'askRequirements',
  'answerRequirements',
  'sendQuote',
  'decline',
  'approve',
  'pay',
  'deliver',
  'cancel',
] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** The photographer's price for an order, in minor units: package price less discount plus extras. */
export interface OrderQuote {
  currency: string;
  packagePriceCents: number;
  discountCents: number;
  extrasCents: number;
  /** What the extras are ("second shooter"); empty without extras. */
  extrasNote: string;
  totalCents: number;
  sentAt: string;
}

/** A change of an order: the action and the data it carries. */
export type OrderActionRequest = { orderId: string } & (
  | { action: 'askRequirements'; message: string }
  | { action: 'answerRequirements'; answer: string }
  | { action: 'sendQuote'; packagePriceCents: number; discountCents: number; extrasCents: number; extrasNote?: string }
  | { action: 'decline'; reason: string }
  /** The quote approved is the one the client read: `quoteSentAt` is its `sentAt`. */
  | { action: 'approve'; quoteSentAt?: string }
  | { action: 'deliver' | 'cancel' }
);

/** A booking from a photographer's page: the event, the package, what the client needs. */
export interface BookingRequest {
  /** The photographer's profile name. */
  photographer: string;
  packageId: number;
  /** One of the client's own events (they organize it): its name, date and place are the order's. */
  eventIdentifier?: string;
  /** A new event's name, date and place: needed unless `eventIdentifier` names one. */
  eventName?: string;
  /** When the event starts: `YYYY-MM-DDTHH:mm`, in the client's time zone, with its offset (an ISO date-time). */
  eventDate?: string;
  location?: string;
  guests: number;
  requirements: string;
  discountCode?: string;
}

/** An order is paid as a purchase of one line, which names the order so: `order:ord-1004`. */
export const ORDER_LINE_PREFIX = 'order:';

export interface RequirementInfo {
  summary: string;
  items: { label: string; value: string }[];
}

/** What the client pays for the order: the booked price, then the quote's total. */
export interface OrderPayment {
  currency: string;
  totalCents: number;
  /** Paid through checkout (the order is being fulfilled or delivered). */
  paid: boolean;
}

/** The photographer's share of the order and when it was paid out: theirs alone to see. */
export interface MediaPayoutInfo {
  currency: string;
  totalCents: number;
  platformFeeCents: number;
  photographerPayoutCents: number;
  paidOut: boolean;
  paidOutAt: string | null;
}

/**
 * Where an upload is in the media pipeline: 'waiting' for its file (never shown), 'processing'
 * once it came, until the server made what it serves of it ('ready'), or 'failed' with a reason.
 */
export type TargetState = 'waiting' | 'processing' | 'ready' | 'failed';

/** An upload attached to an order (SPEC.md section 3 "Target (upload)"). */
export interface Target {
  targetId: number;
  targetIdentifier: string;
  /** The uploaded file's name. */
  target: string;
  /**
   * Where the file can be viewed and downloaded: short-lived links. The order's parties download
   * the original (as an attachment); a sharing-link holder never gets it, only the largest picture
   * the media job made (no location or camera metadata). Empty until the file is ready.
   */
  targetURLs: string[];
  description: string;
  contentType: string;
  uploadedAt: string;
  /**
   * A client's reference file (a venue map, a shot list), or a deliverable: what the photographer
   * uploads once the order is paid, which a holder of the sharing link sees (and only those).
   */
  kind: 'reference' | 'deliverable';
  state: Exclude<TargetState, 'waiting'>;
  /** Why the file was refused (state 'failed'), in words for the uploader; null otherwise. */
  failureReason: string | null;
  /**
   * The processed picture at each width (a video's poster frame); null while processing, when
   * failed, and for files uploaded before the pipeline.
   */
  image: ResponsiveImage | null;
  /** A processed video: its HLS master playlist (360p and 720p, none above the source) and length; null otherwise. */
  video: { hls: string; durationSeconds: number } | null;
}

export interface EventOrderInfo {
  orderId: string;
  status: OrderInfoStatus | null;
  publicStatus: EventOrderStatus;
  eventName: string;
  eventDate: string;
  location: string;
  packageName: string;
  client: string;
  photographer: string;
  photographerProfileName: string;
  createdAt: string;
  /** True when this viewer may cancel now: the client view of an order not yet paid or ended. */
  canCancel: boolean;
  /** What this viewer may do to the order now (empty for a sharing-link holder and a closed order). */
  actions: OrderAction[];
  /** The photographer's last quote; null until one was sent. */
  quote: OrderQuote | null;
  /** What the photographer asked the client to add to the requirements; null when nothing was asked. */
  requirementsRequest: string | null;
  /** The client's answer to it; null until answered. */
  requirementsAnswer: string | null;
  /** Why the photographer declined; null unless declined. */
  declineReason: string | null;
}

export interface EventOrderDetails {
  view: EventOrderView;
  deleted: boolean;
  backButton: { text: string; link: string };
  statuses: ProgressStatus[];
  eventOrderInfo: EventOrderInfo;
  requirementInfo: RequirementInfo;
  /** The parties' only, as is everything the order's terms hold: null for a sharing-link holder. */
  discountCode: string | null;
  /** The parties': what the order costs the client; null for a sharing-link holder. */
  payment: OrderPayment | null;
  /** The photographer's only: null for the client and a sharing-link holder. */
  mediaPayoutInfo: MediaPayoutInfo | null;
  targets: Target[];
  /** Present for the client and the photographer, who may share the order. */
  sharingId: string | null;
  /** Whether this viewer may add files now: the client's references while the order is open, the photographer's deliverables while it is paid and not yet delivered. */
  canUpload: boolean;
  /** A ZIP of every deliverable's original, streamed: for the parties, once there is one. */
  deliverablesZipUrl: string | null;
}

/** One row of /user/orders. */
export interface EventOrderSummary {
  orderId: string;
  view: EventOrderView;
  eventName: string;
  eventDate: string;
  publicStatus: EventOrderStatus;
  status: OrderInfoStatus | null;
  deleted: boolean;
  counterpart: string;
  packageName: string;
  currency: string;
  totalCents: number;
  createdAt: string;
  /** A small picture of the order: its first delivered photo, else its first reference picture; null before either. */
  thumbnailUrl: string | null;
}
