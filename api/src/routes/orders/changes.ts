import { z } from 'zod';
import type { EventOrderView } from '@marketplace/shared/contract';
import { formatMoney } from '@marketplace/shared/format';
import { PAGES } from '@marketplace/shared/platform';
import { orderLineOf, refusalOf, type Order, type OrderTransition } from '../../domain/orders.js';
import { HttpError } from '../../http/errors.js';
import { fields, type Router } from '../../http/route.js';
import { mailLink, queueMail } from '../../mail/queue.js';
import type { RepositorySet } from '../../repositories/index.js';
import type { TransitionData } from '../../repositories/orders/index.js';
import { notifyUser, type Services } from '../../services.js';
import { actorOf, orderOf, requireParty } from './access.js';
import { ORDER_ACTION_INPUT, quoteOf } from './actionInput.js';

const QUOTE_CHANGED = 'The photographer sent a new quote meanwhile: read it before approving';

const cancelNews = (order: Order) => `${order.clientName} cancelled order ${order.orderId} (${order.eventName}).`;

/** The parties' changes of an order's state (domain/orders.ts ORDER_TRANSITIONS), each told to the other party. */
export function registerOrderChangeRoutes(r: Router, services: Services): void {
  const { repos } = services;

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
    const now = await orderOf(repos, order.orderId);
    if (!changed) throw new HttpError(409, refusalOf(now, name, actor) ?? 'This order changed meanwhile: look again');
    return now;
  };

  r.user(
    'updateEventOrderStatus',
    z.object({ orderId: fields.text(40), status: z.literal('CANCELLED', { message: "must be 'CANCELLED'" }) }),
    async ({ orderId, status }, { user }) => {
      const order = await orderOf(repos, orderId);
      requireParty(order, user);
      await change(order, 'cancel', actorOf(order, user), {}, cancelNews(order));
      return { orderId: order.orderId, status };
    },
  );

  r.user('changeEventOrder', ORDER_ACTION_INPUT, async (input, { user }) => {
    const order = await orderOf(repos, input.orderId);
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
