/**
 * Every call of SPEC.md section 7, plus the calls the spec implies, as one table: how each is
 * sent (method, path, encoding, credentials) and what it carries (ApiContract). The reference
 * API registers its routes from this table and the remotes' API client sends from it, so the
 * contract has one source.
 */
import type {
  CartItem,
  CartItemType,
  ChatMessage,
  ChatWindowEntry,
  ContactMessage,
  ContentItem,
  DiscountCode,
  DiscountCodeDraft,
  EventDraft,
  EventSummary,
  MediaPackage,
  MediaPackageDraft,
  MessageNotification,
  Notification,
  OwnEvent,
  OwnProfile,
  Post,
  PublicProfile,
  SearchResult,
  UserInfo,
} from './entities.js';
import type {
  EventOrderDetails,
  EventOrderStatus,
  EventOrderSummary,
  BookingRequest,
  OrderActionRequest,
  OrderInfoStatus,
  Target,
} from './eventOrder.js';
import type { CartSummary, CheckoutRefusal, OwnedItem, Purchase, Sale, SalesMonth } from './purchases.js';
import type { AccountSession, MailPreferences } from './account.js';

/** How a call's request travels: in the query string, as a urlencoded form, or as multipart. */
export type Encoding = 'none' | 'query' | 'form' | 'multipart';

export interface CallSpec {
  method: 'GET' | 'POST';
  /** Path under the API origin; `:name` segments are filled from the request's fields. */
  path: string;
  encoding: Encoding;
  /** Whether the browser sends cookies (fetch `credentials: 'include'`). */
  credentials: boolean;
  /**
   * A page's lookup of one thing (an event, a profile, an order): a thing that does not exist is
   * a 404 with its reason, as for any client of the API, and the page shows "not found" (it has
   * not failed). Chromium logs that answer on the console; the e2e suite accepts that line for
   * these calls' paths only.
   */
  lookup?: true;
  /** Asked once, never again on failure, by whichever part of the platform asks (SPEC.md section 7 says so of some). */
  noRetry?: true;
}

export const API_CALLS = {
  // SPEC.md section 7
  getCart: { method: 'GET', path: '/v2/user/cart', encoding: 'none', credentials: true },
  addCartItem: { method: 'POST', path: '/v2/user/cart/addItem', encoding: 'form', credentials: true },
  removeCartItem: { method: 'POST', path: '/v2/user/cart/removeItem', encoding: 'form', credentials: true },
  logout: { method: 'POST', path: '/v2/logout', encoding: 'none', credentials: true },
  getNotifications: { method: 'GET', path: '/v2/notifications', encoding: 'query', credentials: true },
  clearNewNotifications: { method: 'POST', path: '/v2/clearNewNotifications', encoding: 'none', credentials: true },
  updateNotificationStatus: {
    method: 'POST',
    path: '/v2/updateNotificationStatus',
    encoding: 'form',
    credentials: true,
  },
  deleteNotification: { method: 'POST', path: '/v2/deleteNotification', encoding: 'form', credentials: true },
  // The notification centre (issue item 7): every notification, by cursor, and all marked read at once.
  listNotifications: { method: 'GET', path: '/v2/notifications/all', encoding: 'query', credentials: true },
  markAllNotificationsRead: {
    method: 'POST',
    path: '/v2/notifications/markAllRead',
    encoding: 'none',
    credentials: true,
  },
  getMessageNotifications: { method: 'GET', path: '/v2/messageNotifications', encoding: 'query', credentials: true },
  clearNewMessageNotifications: {
    method: 'POST',
    path: '/v2/clearNewMessageNotifications',
    encoding: 'none',
    credentials: true,
  },
  search: { method: 'GET', path: '/v2/search', encoding: 'query', credentials: true },
  closeChat: { method: 'POST', path: '/v2/closeChat', encoding: 'form', credentials: true },
  checkAuthentication: { method: 'POST', path: '/v2/checkAuthentication', encoding: 'none', credentials: true },
  getUserInfo: { method: 'GET', path: '/v2/userInfo', encoding: 'none', credentials: true },
  updateRoles: { method: 'POST', path: '/v2/updateRoles', encoding: 'multipart', credentials: true },
  submitContactInfo: { method: 'POST', path: '/v2/submitContactInfo', encoding: 'multipart', credentials: false },
  getEventOrderDetails: {
    method: 'GET',
    path: '/v2/eventorder/:orderId/details',
    encoding: 'query',
    credentials: true,
    lookup: true,
    noRetry: true,
  },
  addTarget: { method: 'POST', path: '/v2/eventorder/target/add', encoding: 'multipart', credentials: true },
  changeTargetDescription: {
    method: 'POST',
    path: '/v2/eventorder/target/changeDescription',
    encoding: 'multipart',
    credentials: true,
  },
  removeTarget: { method: 'POST', path: '/v2/eventorder/target/remove', encoding: 'multipart', credentials: true },
  updateEventOrderStatus: { method: 'POST', path: '/v2/eventorder/status', encoding: 'multipart', credentials: true },
  // The order's lifecycle (docs/order-lifecycle.md): every party's change of its state.
  changeEventOrder: { method: 'POST', path: '/v2/eventorder/action', encoding: 'multipart', credentials: true },
  payEventOrder: { method: 'POST', path: '/v2/eventorder/pay', encoding: 'multipart', credentials: true },
  bookPhotographer: { method: 'POST', path: '/v2/bookings', encoding: 'multipart', credentials: true },
  resetOrderSharing: {
    method: 'POST',
    path: '/v2/eventorder/sharing/reset',
    encoding: 'multipart',
    credentials: true,
  },
  // Implied by the spec (issue "Reference API", item 2)
  login: { method: 'POST', path: '/v2/login', encoding: 'form', credentials: true },
  signup: { method: 'POST', path: '/v2/signup', encoding: 'form', credentials: true },
  getEvents: { method: 'GET', path: '/v2/events', encoding: 'query', credentials: true },
  getEvent: { method: 'GET', path: '/v2/events/:eventIdentifier', encoding: 'query', credentials: true, lookup: true },
  getPosts: { method: 'GET', path: '/v2/posts', encoding: 'query', credentials: true },
  getProfile: { method: 'GET', path: '/v2/profiles/:profileName', encoding: 'query', credentials: true, lookup: true },
  getEventOrders: { method: 'GET', path: '/v2/user/eventOrders', encoding: 'none', credentials: true },
  getMyEvents: { method: 'GET', path: '/v2/user/events', encoding: 'none', credentials: true },
  getMediaPackages: { method: 'GET', path: '/v2/user/mediaPackages', encoding: 'none', credentials: true },
  getDiscountCodes: { method: 'GET', path: '/v2/user/discountCodes', encoding: 'none', credentials: true },
  // A photographer's own offers: create, edit and withdraw packages and codes.
  createMediaPackage: { method: 'POST', path: '/v2/user/mediaPackages/create', encoding: 'form', credentials: true },
  updateMediaPackage: { method: 'POST', path: '/v2/user/mediaPackages/update', encoding: 'form', credentials: true },
  withdrawMediaPackage: {
    method: 'POST',
    path: '/v2/user/mediaPackages/withdraw',
    encoding: 'form',
    credentials: true,
  },
  createDiscountCode: { method: 'POST', path: '/v2/user/discountCodes/create', encoding: 'form', credentials: true },
  updateDiscountCode: { method: 'POST', path: '/v2/user/discountCodes/update', encoding: 'form', credentials: true },
  withdrawDiscountCode: {
    method: 'POST',
    path: '/v2/user/discountCodes/withdraw',
    encoding: 'form',
    credentials: true,
  },
  getOwnProfile: { method: 'GET', path: '/v2/user/profile', encoding: 'none', credentials: true },
  updateProfile: { method: 'POST', path: '/v2/user/updateProfile', encoding: 'form', credentials: true },
  openChat: { method: 'POST', path: '/v2/chat/openChat', encoding: 'form', credentials: true },
  getChatMessages: { method: 'GET', path: '/v2/chat/messages', encoding: 'query', credentials: true },
  sendChatMessage: { method: 'POST', path: '/v2/chat/sendMessage', encoding: 'form', credentials: true },
  getOpenChats: { method: 'GET', path: '/v2/chat/open', encoding: 'none', credentials: true },
  // Production topology (issue "Production topology"): the browser's own broker login.
  getLiveCredentials: { method: 'POST', path: '/v2/liveCredentials', encoding: 'none', credentials: true },
  // Buying: the cart's totals and code, checkout, receipts, what a buyer owns and a seller sold.
  getCartSummary: { method: 'GET', path: '/v2/user/cart/summary', encoding: 'none', credentials: true },
  applyDiscountCode: { method: 'POST', path: '/v2/user/cart/discountCode', encoding: 'form', credentials: true },
  removeDiscountCode: {
    method: 'POST',
    path: '/v2/user/cart/discountCode/remove',
    encoding: 'none',
    credentials: true,
  },
  checkout: { method: 'POST', path: '/v2/checkout', encoding: 'none', credentials: true },
  getPurchase: {
    method: 'GET',
    path: '/v2/purchases/:purchaseNumber',
    encoding: 'query',
    credentials: true,
    lookup: true,
  },
  getPurchases: { method: 'GET', path: '/v2/user/purchases', encoding: 'none', credentials: true },
  getSales: { method: 'GET', path: '/v2/user/sales', encoding: 'none', credentials: true },
  // An organizer's own events: written, published or withdrawn, and their covers uploaded.
  createEvent: { method: 'POST', path: '/v2/user/events/create', encoding: 'form', credentials: true },
  updateEvent: { method: 'POST', path: '/v2/user/events/update', encoding: 'form', credentials: true },
  setEventPublished: { method: 'POST', path: '/v2/user/events/publish', encoding: 'form', credentials: true },
  uploadEventCover: { method: 'POST', path: '/v2/user/events/cover', encoding: 'form', credentials: true },
  // Accounts people can recover (issue item 4): reset by mail, change, sessions, mail preferences.
  requestPasswordReset: { method: 'POST', path: '/v2/password/forgot', encoding: 'form', credentials: true },
  resetPassword: { method: 'POST', path: '/v2/password/reset', encoding: 'form', credentials: true },
  changePassword: { method: 'POST', path: '/v2/user/password', encoding: 'form', credentials: true },
  getAccountSessions: { method: 'GET', path: '/v2/user/sessions', encoding: 'none', credentials: true },
  endAccountSession: { method: 'POST', path: '/v2/user/sessions/end', encoding: 'form', credentials: true },
  endAllAccountSessions: { method: 'POST', path: '/v2/user/sessions/endAll', encoding: 'none', credentials: true },
  getMailPreferences: { method: 'GET', path: '/v2/user/mailPreferences', encoding: 'none', credentials: true },
  updateMailPreferences: { method: 'POST', path: '/v2/user/mailPreferences', encoding: 'form', credentials: true },
} as const satisfies Record<string, CallSpec>;

export type CallName = keyof typeof API_CALLS;

type NoFields = Record<string, never>;
interface Paging {
  pageNo?: number;
  limit?: number;
}
interface Page {
  more: boolean;
}

/** A user's notifications counted by SPEC.md section 4's states, all of them (not one page's). */
export interface NotificationCounts {
  total: number;
  /** NEW: what the header's badge counts. */
  new: number;
  /** NEW or UNREAD: not read yet, shown bold. */
  unread: number;
}

/** Request and response of every call. Request fields are logical values; the encoding turns them into strings. */
export interface ApiContract {
  getCart: { request: NoFields; response: { cart: CartItem[] } };
  addCartItem: { request: { identifier: string; itemType: CartItemType }; response: { cart: CartItem[] } };
  removeCartItem: { request: { identifier: string }; response: { cart: CartItem[] } };
  logout: { request: NoFields; response: { loggedOut: true } };
  getNotifications: { request: Paging; response: Page & { notifications: Notification[] } };
  clearNewNotifications: { request: NoFields; response: { updated: number } };
  updateNotificationStatus: {
    request: { status: 'READ'; notificationId: number };
    response: { notification: Notification };
  };
  deleteNotification: { request: { notificationId: number }; response: { deleted: number } };
  /**
   * The notification centre's pages, newest first: the first without `cursor`, each next with the
   * previous page's `nextCursor` (null on the last). A cursor names the last entry shown, so a
   * notification arriving or removed between pages neither repeats nor skips one.
   */
  listNotifications: {
    request: { cursor?: string; limit?: number };
    response: { notifications: Notification[]; nextCursor: string | null; counts: NotificationCounts };
  };
  /** NEW and UNREAD become READ (SPEC.md section 4), the user's own only; `updated` says how many changed. */
  markAllNotificationsRead: { request: NoFields; response: { updated: number } };
  getMessageNotifications: { request: Paging; response: Page & { messageNotifications: MessageNotification[] } };
  clearNewMessageNotifications: { request: NoFields; response: { updated: number } };
  search: { request: { query: string }; response: { searchResults: SearchResult[] } };
  closeChat: { request: { profileName: string }; response: { closed: string } };
  checkAuthentication: { request: NoFields; response: { authenticated: true } };
  getUserInfo: { request: NoFields; response: UserInfo };
  updateRoles: { request: { driver: boolean; media: boolean }; response: UserInfo };
  submitContactInfo: { request: ContactMessage; response: { received: true } };
  getEventOrderDetails: { request: { orderId: string; sharingId?: string }; response: EventOrderDetails };
  addTarget: {
    request: { orderId: string; description: string; fileName: string; contentType: string };
    /**
     * Where the file goes, once: with `uploadFields`, a multipart POST of those fields and then the
     * file as `file` (an object store's presigned POST); without, a PUT of the bytes (the API's own
     * upload target). Either is for this target's file only, of the declared type and size limit.
     */
    response: { uploadUrl: string; uploadFields?: Record<string, string>; targetId: number; targetIdentifier: string };
  };
  changeTargetDescription: {
    request: { orderId: string; targetId: number; description: string };
    response: { target: Target };
  };
  removeTarget: { request: { targetId: number }; response: { removed: number } };
  updateEventOrderStatus: {
    request: { orderId: string; status: 'CANCELLED' };
    response: { orderId: string; status: 'CANCELLED' };
  };
  changeEventOrder: {
    request: OrderActionRequest;
    response: { orderId: string; publicStatus: EventOrderStatus; status: OrderInfoStatus | null };
  };
  /**
   * The client pays an approved order: one open purchase per order (a double click or a second
   * tab gets the same), paid at `purchase.payUrl`; the provider's confirmation secures the order.
   */
  payEventOrder: { request: { orderId: string }; response: { purchase: Purchase } };
  /**
   * A client books a photographer from their page: an event order in ORDER_REQUEST at the
   * package's price (less the photographer's code, when given), which the photographer is told of.
   */
  bookPhotographer: { request: BookingRequest; response: { orderId: string } };
  /** The client ends the order's sharing link: the old one stops working, a new one is made. */
  resetOrderSharing: { request: { orderId: string }; response: { sharingId: string } };
  /** `login` is the account's email or profileName. */
  login: { request: { login: string; password: string }; response: UserInfo };
  signup: {
    request: { username: string; profileName: string; email: string; password: string };
    response: UserInfo;
  };
  getEvents: { request: Paging; response: Page & { events: EventSummary[] } };
  getEvent: { request: { eventIdentifier: string }; response: { event: EventSummary; contentItems: ContentItem[] } };
  getPosts: { request: Paging; response: Page & { posts: Post[] } };
  getProfile: {
    request: { profileName: string };
    /** `packages`: what the person offers to book (a photographer's media packages), cheapest first. */
    response: { profile: PublicProfile; contentItems: ContentItem[]; packages: MediaPackage[] };
  };
  getEventOrders: { request: NoFields; response: { eventOrders: EventOrderSummary[] } };
  /** The organizer's events, drafts too, newest first. */
  getMyEvents: { request: NoFields; response: { events: OwnEvent[] } };
  getMediaPackages: { request: NoFields; response: { mediaPackages: MediaPackage[] } };
  getDiscountCodes: { request: NoFields; response: { discountCodes: DiscountCode[] } };
  /** The MEDIA user's own packages and codes only: another's id is not found. */
  createMediaPackage: { request: MediaPackageDraft; response: { mediaPackage: MediaPackage } };
  updateMediaPackage: { request: MediaPackageDraft & { id: number }; response: { mediaPackage: MediaPackage } };
  /** No longer offered nor bookable; orders already made keep its name and price. */
  withdrawMediaPackage: { request: { id: number }; response: { mediaPackage: MediaPackage } };
  /** `code` is uppercased; a code's text is refused (409) when any code has it. */
  createDiscountCode: { request: DiscountCodeDraft; response: { discountCode: DiscountCode } };
  updateDiscountCode: { request: DiscountCodeDraft & { id: number }; response: { discountCode: DiscountCode } };
  /** Switched off: refused in carts, at checkout and in bookings from then on. */
  withdrawDiscountCode: { request: { id: number }; response: { discountCode: DiscountCode } };
  getOwnProfile: { request: NoFields; response: OwnProfile };
  updateProfile: {
    request: { username?: string; email?: string; bio?: string };
    response: OwnProfile;
  };
  getChatMessages: {
    request: { profileName: string };
    response: { contact: ChatWindowEntry; messages: ChatMessage[] };
  };
  sendChatMessage: { request: { profileName: string; content: string }; response: { message: ChatMessage } };
  getOpenChats: { request: NoFields; response: { chats: ChatWindowEntry[] } };
  /** A chat window opened: the conversation's message notification becomes READ, the window is remembered as open. */
  openChat: { request: { profileName: string }; response: { opened: string } };
  /**
   * A broker login for this page's one live connection: it may subscribe to the user's two topics
   * only and publish nothing, and it ends with the session (logout or expiry).
   */
  getLiveCredentials: { request: NoFields; response: { username: string; password: string } };
  getCartSummary: { request: NoFields; response: { summary: CartSummary } };
  /** Refused with the reason: unknown, expired, used up, inactive, or for none of the cart's items. */
  applyDiscountCode: { request: { code: string }; response: { summary: CartSummary } };
  removeDiscountCode: { request: NoFields; response: { summary: CartSummary } };
  /**
   * Turns the signed-in user's cart into one open purchase, priced by the server now (a second
   * checkout of the same cart answers the same purchase). Items already owned or no longer for
   * sale leave the cart and are listed in `refused`; the buyer pays at `purchase.payUrl`.
   */
  checkout: { request: NoFields; response: { purchase: Purchase; refused: CheckoutRefusal[] } };
  /** A receipt: the buyer's own purchases only. */
  getPurchase: { request: { purchaseNumber: string }; response: { purchase: Purchase } };
  /** The paid purchases and what they bought, newest first; `downloadAllUrl` is a ZIP of every original. */
  getPurchases: {
    request: NoFields;
    response: { purchases: Purchase[]; items: OwnedItem[]; downloadAllUrl: string | null };
  };
  /** A seller's sales, newest first, and their totals per month. */
  getSales: { request: NoFields; response: { sales: Sale[]; months: SalesMonth[] } };
  /** An organizer's new event, a draft until published; refused field by field with the reason. */
  createEvent: { request: EventDraft; response: { event: OwnEvent } };
  updateEvent: { request: EventDraft & { eventIdentifier: string }; response: { event: OwnEvent } };
  /** Publishes the organizer's event, or withdraws it (its page is theirs alone again). */
  setEventPublished: { request: { eventIdentifier: string; published: boolean }; response: { event: OwnEvent } };
  /**
   * Where the event's new cover goes, once, as for `addTarget`: a presigned POST with
   * `uploadFields`, or a PUT of the bytes. Its media job makes the cover shown; until then the
   * event says `coverProcessing`.
   */
  uploadEventCover: {
    request: { eventIdentifier: string; contentType: string };
    response: { uploadUrl: string; uploadFields?: Record<string, string> };
  };
  /**
   * Mails a single-use link to set a new password (30 minutes) when an account has this email.
   * The answer is the same whether one has or not, so it tells nobody which emails have accounts.
   */
  requestPasswordReset: { request: { email: string }; response: { requested: true } };
  /** Sets the password of the link's account and ends every session of it; 400 for a link used, expired or unknown. */
  resetPassword: { request: { token: string; password: string }; response: { reset: true } };
  /** The current password is required; every other session of the account ends, and this one is replaced (a new cookie). */
  changePassword: { request: { currentPassword: string; newPassword: string }; response: { changed: true } };
  /** The account's sessions, the most recently seen first. */
  getAccountSessions: { request: NoFields; response: { sessions: AccountSession[] } };
  /** Ends one of the user's own sessions (their current one too: that is logging out). */
  endAccountSession: { request: { sessionId: string }; response: { ended: string } };
  /** Ends every session of the account, this one too ("Log out everywhere"). */
  endAllAccountSessions: { request: NoFields; response: { ended: number } };
  getMailPreferences: { request: NoFields; response: MailPreferences };
  /** Switches only the kinds named (at least one); answers every preference as saved. */
  updateMailPreferences: { request: Partial<MailPreferences>; response: MailPreferences };
}

// Compile-time check that the table and the contract name the same calls.
type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never] ? true : never;
export const contractCoversEveryCall: SameKeys<typeof API_CALLS, ApiContract> = true;

export type ApiRequest<K extends CallName> = ApiContract[K]['request'];
/** apiCall's arguments for call K: the request, optional when the call takes no fields. */
export type CallArgs<K extends CallName> =
  Record<string, never> extends ApiRequest<K> ? [request?: ApiRequest<K>] : [request: ApiRequest<K>];
export type ApiResponse<K extends CallName> = ApiContract[K]['response'];

/** Body of every 4xx/5xx answer: a reason a person can read, and the offending field when there is one. */
export interface ApiErrorBody {
  error: string;
  field?: string;
}

/** Paths on the files host (not under /v2). */
export const FILES_PATHS = {
  download: '/download',
  media: '/media',
  upload: '/upload',
  /** An order's private files, by signed link only (the API's files host). */
  orderFile: '/files/order',
} as const;

/** Query of GET /download (SPEC.md section 7 "Download"). */
export interface DownloadQuery {
  filePath: string;
  fileName: string;
}
