import { z } from 'zod';
import { ORDER_ACTIONS, type EventOrderView, type OrderQuote } from '@marketplace/shared/contract';
import { formatMoney } from '@marketplace/shared/format';
import { PAGES } from '@marketplace/shared/platform';
import {
  CURRENCY,
  detailsFor,
  isParty,
  orderLineOf,
  refusalOf,
  summaryFor,
  viewOf,
  type Order,
  type OrderTransition,
  uploadRefusal,
} from '../domain/orders.js';
import type { RepositorySet } from '../repositories/index.js';
import type { TransitionData } from '../repositories/orders.js';
import { settleUploads } from '../files/uploads.js';
import { uploadLimit } from '../config.js';
import type { SessionUser } from '../http/env.js';
import { HttpError, forbidden, notFound, notLoggedIn, orderClosed } from '../http/errors.js';
import { fields, noFields, noNul, type Router } from '../http/route.js';
import { mailLink, queueMail } from '../mail/queue.js';
import { notifyUser, type Services } from '../services.js';

/** Order targets are reference pictures and deliverables: photos, and videos (processed into HLS). */
const UPLOAD_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'video/mp4',
  'video/quicktime',
  'video/webm',
] as const;

const description = () => noNul(z.string().trim().max(500, 'must be at most 500 characters'));

/** Who is looking (domain/orders.ts); anyone not allowed is refused. */
function viewFor(order: Order, user: SessionUser | null, sharingId: string | undefined): EventOrderView {
  const view = viewOf(order, user?.id ?? null, sharingId);
  if (view) return view;
  if (!user) throw notLoggedIn();
  throw forbidden('You are not allowed to view this order');
}

function requireParty(order: Order, user: SessionUser): void {
  if (!isParty(order, user.id)) throw forbidden('You are not allowed to change this order');
}

export function registerOrderRoutes(r: Router, services: Services): void {
  const { repos, files } = services;

  const orderOf = async (orderId: string): Promise<Order> => {
    const order = await repos.orders.byOrderId(orderId);
    if (!order) throw notFound('Order');
    return order;
  };

  /**
   * Inside a transaction, before a party's file changes: holds the order's row while the party may
   * still change its files (as for adding one: the client's references while the order is open, the
   * photographer's deliverables while it is being fulfilled), or refuses with the reason.
   */
  const holdForFiles = async (tx: RepositorySet, order: Order, actor: 'client' | 'photographer') => {
    if (await tx.orders.holdIfOpen(order.rowId, actor === 'photographer' ? 'PENDING_FULFILLMENTS' : null)) return;
    // Read on the transaction's own connection (SQLite has one: another would wait for this one).
    const now = await tx.orders.byOrderId(order.orderId);
    throw new HttpError(409, (now && uploadRefusal(now, actor)) ?? orderClosed().message);
  };

  r.user('getEventOrders', noFields, async (_input, { user }) => {
    const orders = await repos.orders.ofParty(user.id);
    const thumbnails = await repos.orders.thumbnails(orders);
    return {
      eventOrders: orders.map((order) => summaryFor(order, user.id, thumbnails.get(order.rowId) ?? null)),
    };
  });

  r.visitor(
    'getEventOrderDetails',
    z.object({ orderId: fields.text(40), sharingId: z.string().max(100).optional() }),
    async ({ orderId, sharingId }, { user }) => {
      const order = await orderOf(orderId);
      const view = viewFor(order, user, sharingId);
      // Files sent straight to an object store since the last look count from now on.
      await settleUploads(services, order.rowId);
      const targets = await repos.orders.targets(order, view);
      const delivered = targets.some((target) => target.kind === 'deliverable' && target.state === 'ready');
      return detailsFor(order, view, targets, delivered ? repos.urls.orderDeliverables(order.orderId) : null);
    },
  );

  r.user(
    'addTarget',
    z.object({
      orderId: fields.text(40),
      description: description(),
      fileName: fields.text(200).refine((name) => !/[/\\\0]/.test(name), 'must be a plain file name'),
      contentType: z.enum(UPLOAD_CONTENT_TYPES, {
        message: 'Only images (PNG, JPEG, WebP, GIF) and videos (MP4, MOV, WebM) can be uploaded',
      }),
    }),
    async ({ orderId, ...file }, { user }) => {
      const order = await orderOf(orderId);
      requireParty(order, user);
      const actor = actorOf(order, user);
      const refusal = uploadRefusal(order, actor);
      if (refusal) throw new HttpError(409, refusal);
      // Added only while the order allows it, decided with the order's row held (a cancel or a
      // delivery racing it comes before or after, never between the check and the insert).
      const added = await repos.transaction(async (tx) => {
        await holdForFiles(tx, order, actor);
        return tx.orders.addTarget(order, user.id, file);
      });
      const { key, token, ...target } = added;
      // The object store's presigned POST, or the API's own upload target with its token.
      const post = await files.presignUpload(key, file.contentType, uploadLimit(services.config, file.contentType));
      return post
        ? { ...target, uploadUrl: post.url, uploadFields: post.fields }
        : { ...target, uploadUrl: repos.urls.upload(target.targetIdentifier, token) };
    },
  );

  r.user(
    'changeTargetDescription',
    z.object({ orderId: fields.text(40), targetId: fields.id(), description: description() }),
    async ({ orderId, targetId, description }, { user }) => {
      const order = await orderOf(orderId);
      requireParty(order, user);
      const actor = actorOf(order, user);
      const target = await repos.transaction(async (tx) => {
        await holdForFiles(tx, order, actor);
        return tx.orders.describeTarget(order, actor, user.id, targetId, description);
      });
      if (!target) throw notFound('Target');
      return { target };
    },
  );

  r.user('removeTarget', z.object({ targetId: fields.id() }), async ({ targetId }, { user }) => {
    const found = await repos.orders.targetById(targetId);
    if (!found) throw notFound('Target');
    if (!found.order) throw notFound('Order');
    const order = found.order;
    requireParty(order, user);
    if (found.uploaderId !== user.id) throw forbidden('Only who uploaded a file can remove it');
    const removed = await repos.transaction(async (tx) => {
      await holdForFiles(tx, order, actorOf(order, user));
      return tx.orders.removeTarget(targetId);
    });
    // Its files as the row held them when it went (the original and what the media job made), and
    // what waits in quarantine (sent to an object store, not yet settled).
    for (const key of new Set([...found.keys, ...removed])) if (!files.check(key)) await files.remove(key);
    return { removed: targetId };
  });

  /**
   * Makes one change of the order's state for `actor`, with the data it writes, and tells the other
   * party: the change and its notification commit together, and only for the one request whose
   * guarded update found the order still in a state the change may leave. Any other request is
   * refused with the reason, read from the order as it is now.
   */
  const change = async (
    order: Order,
    name: OrderTransition,
    actor: EventOrderView,
    data: TransitionData,
    news: string,
    /**
     * A further condition of the change, checked inside its transaction once the guarded update
     * holds the order's row (a file removed at the same moment went before or comes after): why
     * not, or null. A reason undoes the change.
     */
    unmet: (tx: RepositorySet) => Promise<string | null> = async () => null,
  ): Promise<Order> => {
    const reason = refusalOf(order, name, actor);
    if (reason) throw new HttpError(409, reason);
    const changed = await repos.transaction(async (tx) => {
      if (!(await tx.orders.transition(order, name, data))) return false;
      const why = await unmet(tx);
      if (why) throw new HttpError(409, why);
      // A cancelled order is not paid: its open payment ends with it (a payment confirmed after
      // all is held for a refund by the webhook).
      if (name === 'cancel') await tx.purchases.expireOpen(orderLineOf(order.orderId));
      const told = actor === 'client' ? order.photographerId : order.clientId;
      await notifyUser(tx, told, news, PAGES.eventOrder.href({ orderId: order.orderId }));
      // And by mail, unless they switched order updates off: with the change, or neither.
      await queueMail({ repos: tx, config: services.config }, told, 'orderUpdate', {
        orderId: order.orderId,
        eventName: order.eventName,
        news,
        link: mailLink(services.config, PAGES.eventOrder.href({ orderId: order.orderId })),
      });
      return true;
    });
    const now = await orderOf(order.orderId);
    if (!changed) throw new HttpError(409, refusalOf(now, name, actor) ?? 'This order changed meanwhile: look again');
    return now;
  };

  r.user(
    'updateEventOrderStatus',
    z.object({ orderId: fields.text(40), status: z.literal('CANCELLED', { message: "must be 'CANCELLED'" }) }),
    async ({ orderId, status }, { user }) => {
      const order = await orderOf(orderId);
      requireParty(order, user);
      await change(order, 'cancel', actorOf(order, user), {}, cancelNews(order));
      return { orderId: order.orderId, status };
    },
  );

  r.user('resetOrderSharing', z.object({ orderId: fields.text(40) }), async ({ orderId }, { user }) => {
    const order = await orderOf(orderId);
    requireParty(order, user);
    if (order.clientId !== user.id) throw new HttpError(409, 'Only the client can do this');
    return { sharingId: await repos.orders.resetSharing(order.rowId) };
  });

  r.user('changeEventOrder', ORDER_ACTION_INPUT, async (input, { user }) => {
    const order = await orderOf(input.orderId);
    requireParty(order, user);
    const actor = actorOf(order, user);
    const who = actor === 'client' ? order.clientName : order.photographerName;
    const about = `order ${order.orderId} (${order.eventName})`;
    let changed: Order;
    switch (input.action) {
      case 'askRequirements':
        changed = await change(
          order,
          'askRequirements',
          actor,
          { requirementsRequest: input.message, requirementsAnswer: '' },
          `${who} needs more about your ${about}: ${input.message}`,
        );
        break;
      case 'answerRequirements':
        changed = await change(
          order,
          'answerRequirements',
          actor,
          { requirementsAnswer: input.answer },
          `${who} answered your questions on ${about}.`,
        );
        break;
      case 'sendQuote': {
        const quote = quoteOf(input);
        changed = await change(
          order,
          'sendQuote',
          actor,
          { quote, totalCents: quote.totalCents },
          `${who} sent you a quote for ${about}: ${formatMoney(quote.totalCents, quote.currency)}.`,
        );
        break;
      }
      case 'decline':
        changed = await change(
          order,
          'decline',
          actor,
          { declineReason: input.reason },
          `${who} declined your ${about}: ${input.reason}`,
        );
        break;
      case 'approve':
        // The quote the client read: a newer one sent meanwhile is not approved unseen.
        if (!refusalOf(order, 'approve', actor) && order.quote?.sentAt !== input.quoteSentAt)
          throw new HttpError(409, QUOTE_CHANGED);
        changed = await change(
          order,
          'approve',
          actor,
          { whileQuote: order.quote },
          `${who} approved your quote for ${about}.`,
        );
        break;
      case 'deliver':
        changed = await change(order, 'deliver', actor, {}, `${who} delivered your ${about}.`, async (tx) =>
          (await tx.orders.hasDeliverable(order))
            ? null
            : 'Upload at least one photo or video before marking the order delivered',
        );
        break;
      case 'cancel':
        changed = await change(order, 'cancel', actor, {}, cancelNews(order));
        break;
    }
    return { orderId: changed.orderId, publicStatus: changed.publicStatus, status: changed.infoStatus };
  });
}

/** A party acts as the client or the photographer of the order (requireParty checked it is one). */
const actorOf = (order: Order, user: SessionUser): 'client' | 'photographer' =>
  order.clientId === user.id ? 'client' : 'photographer';

const cancelNews = (order: Order) => `${order.clientName} cancelled order ${order.orderId} (${order.eventName}).`;

/** An amount in minor units, sent as text: a whole number up to $100,000. */
const cents = () =>
  z
    .string()
    .regex(/^\d{1,8}$/, 'must be a whole number of cents')
    .transform(Number)
    .refine((n) => n <= 10_000_000, 'must be at most $100,000');

const QUOTE_CHANGED = 'The photographer sent a new quote meanwhile: read it before approving';

/** The lowest total a quote may ask: card payments of less cost more than they bring. */
const MIN_QUOTE_CENTS = 100;

const orderId = () => fields.text(40);
/** The changes a party makes here; paying goes through the provider (payEventOrder). */
const CHANGES = ORDER_ACTIONS.filter((action) => action !== 'pay');
const ORDER_ACTION_INPUT = z
  .object({
    orderId: orderId(),
    action: z.enum(CHANGES, { message: `must be one of ${CHANGES.join(', ')}` }),
  })
  .passthrough()
  .pipe(
    z.discriminatedUnion('action', [
      z.object({ orderId: orderId(), action: z.literal('askRequirements'), message: fields.text(1000) }),
      z.object({ orderId: orderId(), action: z.literal('answerRequirements'), answer: fields.text(2000) }),
      z
        .object({
          orderId: orderId(),
          action: z.literal('sendQuote'),
          packagePriceCents: cents(),
          discountCents: cents(),
          extrasCents: cents(),
          extrasNote: fields.optionalText(200),
        })
        .refine((q) => q.discountCents <= q.packagePriceCents, {
          message: 'must not be more than the package price',
          path: ['discountCents'],
        })
        .refine((q) => q.packagePriceCents - q.discountCents + q.extrasCents >= MIN_QUOTE_CENTS, {
          message: `must come to a total of at least ${formatMoney(MIN_QUOTE_CENTS, CURRENCY)}`,
          path: ['packagePriceCents'],
        }),
      z.object({ orderId: orderId(), action: z.literal('decline'), reason: fields.text(500) }),
      z.object({ orderId: orderId(), action: z.literal('approve'), quoteSentAt: z.string().max(40).optional() }),
      z.object({ orderId: orderId(), action: z.enum(['deliver', 'cancel']) }),
    ]),
  );

function quoteOf(input: {
  packagePriceCents: number;
  discountCents: number;
  extrasCents: number;
  extrasNote?: string | undefined;
}): OrderQuote {
  return {
    currency: CURRENCY,
    packagePriceCents: input.packagePriceCents,
    discountCents: input.discountCents,
    extrasCents: input.extrasCents,
    extrasNote: input.extrasCents > 0 ? (input.extrasNote ?? '') : '',
    totalCents: input.packagePriceCents - input.discountCents + input.extrasCents,
    sentAt: new Date().toISOString(),
  };
}
