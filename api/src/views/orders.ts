import {
  EVENT_ORDER_STEPS,
  type EventOrderDetails,
  type EventOrderStatus,
  type EventOrderSummary,
  type EventOrderView,
  type ProgressStatus,
  type Target,
} from '@marketplace/shared/contract';
import { PAGES } from '@marketplace/shared/platform';
import { CURRENCY, actionsFor, canCancel, fees, uploadRefusal, type Order } from '../domain/orders.js';
import { UPLOADED_ORIGINAL } from '../files/orderFileLinks.js';
import { MASTER_PLAYLIST, pictureOf, smallestJpeg } from '../media/derivatives.js';
import type { ReadyFile, TargetRecord } from '../repositories/orders/index.js';
import type { FileUrls } from '../repositories/urls.js';

/** Event orders as the contract shows them: their files by short-lived signed links. */
export function orderViews(urls: Pick<FileUrls, 'orderFile' | 'orderDeliverables'>) {
  // Targets are shown once their file came (never 'waiting'). Their files are private to whoever
  // may read the order: short-lived signed links, never a key; none until the file is ready. The
  // parties get the original to download; a sharing-link holder only the largest picture made of it.
  const target = (record: TargetRecord, order: Order, view: EventOrderView): Target => {
    const { media, identifier } = record;
    const ready = record.state === 'ready';
    const largest = media?.derivatives.findLast((d) => d.contentType === 'image/jpeg')?.name ?? null;
    const links = (): string[] => {
      if (!ready) return [];
      if (view !== 'sharedUser') {
        // The view (the largest processed JPEG; the file itself for one uploaded before the pipeline) and the
        // original: as sent for its uploader, without its location for the other party (files/stripLocation.ts).
        const reader = view === 'photographer' ? order.photographerId : order.clientId;
        const original = record.uploaderId === reader ? UPLOADED_ORIGINAL : null;
        return [urls.orderFile(identifier, largest, false), urls.orderFile(identifier, original, true)];
      }
      return largest ? [urls.orderFile(identifier, largest, false), urls.orderFile(identifier, largest, true)] : [];
    };
    return {
      targetId: record.id,
      targetIdentifier: identifier,
      target: record.fileName,
      targetURLs: links(),
      description: record.description,
      contentType: record.contentType,
      uploadedAt: record.uploadedAt ?? '',
      kind: record.uploaderId === order.photographerId ? 'deliverable' : 'reference',
      state: record.state === 'waiting' ? 'processing' : record.state,
      failureReason: record.state === 'failed' ? record.failureReason : null,
      image: ready && media ? pictureOf(media, (d) => urls.orderFile(identifier, d.name, false)) : null,
      video:
        ready && media?.video
          ? { hls: urls.orderFile(identifier, MASTER_PLAYLIST, false), durationSeconds: media.video.durationSeconds }
          : null,
    };
  };

  /**
   * Each order's small picture, by its row id: the smallest JPEG made of its first ready photo,
   * the photographer's (a deliverable) before the client's (a reference); none for an order with neither.
   */
  const thumbnails = (orders: readonly Order[], files: readonly ReadyFile[]): Map<number, string> => {
    const thumbnails = new Map<number, string>();
    const photographerOf = new Map(orders.map((order) => [order.rowId, order.photographerId]));
    const deliverableFirst = [...files].sort(
      (a, b) =>
        Number(b.uploaderId === photographerOf.get(b.orderRowId)) -
        Number(a.uploaderId === photographerOf.get(a.orderRowId)),
    );
    for (const file of deliverableFirst) {
      if (thumbnails.has(file.orderRowId)) continue;
      const smallest = file.media && smallestJpeg(file.media);
      if (smallest) thumbnails.set(file.orderRowId, urls.orderFile(file.identifier, smallest.name, false));
      // A picture from before the media pipeline is its own thumbnail.
      else if (!file.media && file.contentType.startsWith('image/'))
        thumbnails.set(file.orderRowId, urls.orderFile(file.identifier, null, false));
    }
    return thumbnails;
  };

  return {
    target,

    /** The user's orders, each with its small picture chosen among their ready files. */
    summaries(orders: readonly Order[], userId: number, files: readonly ReadyFile[]): EventOrderSummary[] {
      const pictures = thumbnails(orders, files);
      return orders.map((order) => summaryFor(order, userId, pictures.get(order.rowId) ?? null));
    },

    /** The order page as `view` sees it; the deliverables' ZIP once one of them is ready. */
    details(order: Order, view: EventOrderView, records: readonly TargetRecord[]): EventOrderDetails {
      const targets = records.map((record) => target(record, order, view));
      const delivered = targets.some((shown) => shown.kind === 'deliverable' && shown.state === 'ready');
      return detailsFor(order, view, targets, delivered ? urls.orderDeliverables(order.orderId) : null);
    },
  };
}

/** The progress bar: steps before the current one COMPLETED, the current one CURRENT, the rest LOCKED. */
export function progress(status: EventOrderStatus): ProgressStatus[] {
  const stepIndex = (step: (typeof EVENT_ORDER_STEPS)[number]) => EVENT_ORDER_STEPS.indexOf(step);
  // APPROVED has no step: approval is done and fulfilment is next. DECLINED stops at approval.
  const current =
    status === 'APPROVED'
      ? stepIndex('PENDING_FULFILLMENTS')
      : status === 'DECLINED'
        ? stepIndex('AWAITING_APPROVAL')
        : stepIndex(status);
  const finished = status === 'DELIVERED';
  return EVENT_ORDER_STEPS.map((statusName, i) => ({
    statusName,
    statusType: finished || i < current ? 'COMPLETED' : i === current ? 'CURRENT' : 'LOCKED',
  }));
}

/** The states of an order its client has paid for (the webhook's `pay` moved it on). */
const PAID_STATUSES: readonly EventOrderStatus[] = ['PENDING_FULFILLMENTS', 'DELIVERED'];

/** An order in the list of a party to it: the counterpart is the other party. */
export function summaryFor(order: Order, userId: number, thumbnailUrl: string | null = null): EventOrderSummary {
  const asClient = order.clientId === userId;
  return {
    orderId: order.orderId,
    view: asClient ? 'client' : 'photographer',
    eventName: order.eventName,
    eventDate: order.eventDate,
    publicStatus: order.publicStatus,
    status: order.infoStatus,
    deleted: order.deleted,
    counterpart: asClient ? order.photographerName : order.clientName,
    packageName: order.packageName,
    currency: CURRENCY,
    totalCents: order.totalCents,
    createdAt: order.createdAt,
    thumbnailUrl,
  };
}

/** The order page as `view` sees it: a sharing-link holder gets no sharing link and goes back to the events. */
export function detailsFor(
  order: Order,
  view: EventOrderView,
  targets: Target[],
  deliverablesZipUrl: string | null = null,
): EventOrderDetails {
  const party = view !== 'sharedUser';
  const { platformFeeCents, photographerPayoutCents } = fees(order.totalCents);
  return {
    view,
    deleted: order.deleted,
    backButton: party
      ? { text: 'Back to orders', link: PAGES.orders.href() }
      : { text: 'Back to events', link: PAGES.events.href() },
    statuses: progress(order.publicStatus),
    eventOrderInfo: {
      orderId: order.orderId,
      status: order.infoStatus,
      publicStatus: order.publicStatus,
      eventName: order.eventName,
      eventDate: order.eventDate,
      location: order.location,
      packageName: order.packageName,
      client: order.clientName,
      photographer: order.photographerName,
      photographerProfileName: order.photographerProfileName,
      createdAt: order.createdAt,
      canCancel: canCancel(order, view),
      actions: actionsFor(order, view),
      // The terms between the parties are theirs: a sharing-link holder sees the event and what
      // was delivered, not the price, the requirements or why anything was asked or declined.
      quote: party ? order.quote : null,
      requirementsRequest: party ? order.requirementsRequest : null,
      requirementsAnswer: party ? order.requirementsAnswer : null,
      declineReason: party ? order.declineReason : null,
    },
    requirementInfo: party ? order.requirementInfo : { summary: '', items: [] },
    discountCode: party ? order.discountCode : null,
    payment: party
      ? { currency: CURRENCY, totalCents: order.totalCents, paid: PAID_STATUSES.includes(order.publicStatus) }
      : null,
    mediaPayoutInfo:
      view === 'photographer'
        ? {
            currency: CURRENCY,
            totalCents: order.totalCents,
            platformFeeCents,
            photographerPayoutCents,
            paidOut: order.paidOutAt !== null,
            paidOutAt: order.paidOutAt,
          }
        : null,
    targets,
    sharingId: party ? order.sharingId : null,
    canUpload: uploadRefusal(order, view) === null,
    deliverablesZipUrl: party ? deliverablesZipUrl : null,
  };
}
