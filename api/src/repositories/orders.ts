import { randomBytes } from 'node:crypto';
import type {
  EventOrderStatus,
  EventOrderView,
  OrderQuote,
  RequirementInfo,
  Target,
  TargetState,
} from '@marketplace/shared/contract';
import type { Db } from '../db/database.js';
import { type ExpressionBuilder } from 'kysely';
import { ORDER_TRANSITIONS, type Order, type OrderTransition } from '../domain/orders.js';
import type { Schema } from '../db/schema.js';
import { quarantineKey } from '../files/paths.js';
import { UPLOADED_ORIGINAL } from '../files/orderFileLinks.js';
import {
  type Derivative,
  MASTER_PLAYLIST,
  type TargetMedia,
  parseMedia,
  pictureOf,
  smallestJpeg,
} from '../media/derivatives.js';
import { nowIso } from './sql.js';
import type { FileUrls } from './urls.js';

/** Every order query reads the order with its parties' names, so one mapper reads them all. */
const orderQuery = (db: Db) =>
  db
    .selectFrom('event_orders as o')
    .innerJoin('users as c', 'c.id', 'o.client_id')
    .innerJoin('users as p', 'p.id', 'o.photographer_id')
    .selectAll('o')
    .select([
      'c.username as client_name',
      'p.username as photographer_name',
      'p.profile_name as photographer_profile_name',
    ]);
type OrderRow = Awaited<ReturnType<ReturnType<typeof orderQuery>['executeTakeFirstOrThrow']>>;

const toOrder = (row: OrderRow): Order => ({
  rowId: row.id,
  orderId: row.order_id,
  sharingId: row.sharing_id,
  clientId: row.client_id,
  photographerId: row.photographer_id,
  clientName: row.client_name,
  photographerName: row.photographer_name,
  photographerProfileName: row.photographer_profile_name,
  eventName: row.event_name,
  eventDate: row.event_date,
  location: row.location,
  packageName: row.package_name,
  publicStatus: row.public_status,
  infoStatus: row.info_status,
  deleted: row.deleted === 1,
  requirementInfo: JSON.parse(row.requirement_info) as RequirementInfo,
  discountCode: row.discount_code,
  totalCents: row.total_cents,
  paidOutAt: row.paid_out_at,
  createdAt: row.created_at,
  quote: row.quote === null ? null : (JSON.parse(row.quote) as OrderQuote),
  requirementsRequest: row.requirements_request,
  requirementsAnswer: row.requirements_answer,
  declineReason: row.decline_reason,
});

/** A booking as it is stored: the package's name and price as they were at that moment. */
export interface NewOrder {
  clientId: number;
  photographerId: number;
  eventName: string;
  eventDate: string;
  location: string;
  packageName: string;
  requirementInfo: RequirementInfo;
  discountCode: string | null;
  totalCents: number;
}

/** What a change writes beside the status: the data its action carries. */
export interface TransitionData {
  quote?: OrderQuote;
  totalCents?: number;
  requirementsRequest?: string;
  requirementsAnswer?: string;
  declineReason?: string;
  /** Not written: the change is made only while this is still the order's quote (null: none). */
  whileQuote?: OrderQuote | null;
}

const TARGET_COLUMNS = [
  'id',
  'uploader_id',
  'identifier',
  'file_name',
  'content_type',
  'description',
  'file_path',
  'uploaded_at',
  'state',
  'failure_reason',
  'media',
] as const;

interface TargetRow {
  id: number;
  uploader_id: number;
  identifier: string;
  file_name: string;
  content_type: string;
  description: string;
  file_path: string | null;
  uploaded_at: string | null;
  state: TargetState;
  failure_reason: string | null;
  media: string | null;
}

/** An upload target waiting for (or holding) its file, as the files host checks a PUT against it. */
export interface UploadSlot {
  targetId: number;
  targetIdentifier: string;
  orderRowId: number;
  /** Where its upload waits to be checked (quarantineKey); the checked copy is stored elsewhere. */
  key: string;
  orderId: string;
  uploaderId: number;
  fileName: string;
  contentType: string;
  token: string;
  uploaded: boolean;
}

export type OrdersRepository = ReturnType<typeof ordersRepository>;

/** A sharing link's id: 72 random bits, unguessable. */
export const newSharingId = () => randomBytes(9).toString('base64url');

/** Neither deleted nor cancelled: the WHERE every change of an order starts from. */
const live = (eb: ExpressionBuilder<Schema, 'event_orders'>) =>
  eb.and([
    eb('event_orders.deleted', '=', 0),
    eb.or([eb('event_orders.info_status', 'is', null), eb('event_orders.info_status', '!=', 'CANCELLED')]),
  ]);

/** Event orders and their targets (reference pictures and deliverables, uploaded to the files host). */
export function ordersRepository(db: Db, urls: FileUrls) {
  // Targets are shown once their file came (never 'waiting'). Their files are private to whoever
  // may read the order: short-lived signed links, never a key; none until the file is ready. The
  // parties get the original to download; a sharing-link holder only the largest picture made of it.
  const toTarget = (row: TargetRow, order: Order, view: EventOrderView): Target => {
    const media = parseMedia(row.media);
    const ready = row.state === 'ready';
    const largest = media?.derivatives.findLast((d) => d.contentType === 'image/jpeg')?.name ?? null;
    const links = (): string[] => {
      if (!ready) return [];
      if (view !== 'sharedUser') {
        // The view (the largest processed JPEG; the file itself for one uploaded before the pipeline) and the
        // original: as sent for its uploader, without its location for the other party (files/stripLocation.ts).
        const reader = view === 'photographer' ? order.photographerId : order.clientId;
        const original = row.uploader_id === reader ? UPLOADED_ORIGINAL : null;
        return [urls.orderFile(row.identifier, largest, false), urls.orderFile(row.identifier, original, true)];
      }
      return largest
        ? [urls.orderFile(row.identifier, largest, false), urls.orderFile(row.identifier, largest, true)]
        : [];
    };
    return {
      targetId: row.id,
      targetIdentifier: row.identifier,
      target: row.file_name,
      targetURLs: links(),
      description: row.description,
      contentType: row.content_type,
      uploadedAt: row.uploaded_at ?? '',
      kind: row.uploader_id === order.photographerId ? 'deliverable' : 'reference',
      state: row.state === 'waiting' ? 'processing' : row.state,
      failureReason: row.state === 'failed' ? row.failure_reason : null,
      image: ready && media ? pictureOf(media, (d) => urls.orderFile(row.identifier, d.name, false)) : null,
      video:
        ready && media?.video
          ? {
              hls: urls.orderFile(row.identifier, MASTER_PLAYLIST, false),
              durationSeconds: media.video.durationSeconds,
            }
          : null,
    };
  };

  const byRowId = async (rowId: number): Promise<Order | undefined> => {
    const row = await orderQuery(db).where('o.id', '=', rowId).executeTakeFirst();
    return row && toOrder(row);
  };

  const slotQuery = db
    .selectFrom('order_targets as t')
    .innerJoin('event_orders as o', 'o.id', 't.order_id')
    .select([
      't.id',
      't.identifier',
      't.order_id',
      'o.order_id as order_code',
      't.uploader_id',
      't.file_name',
      't.content_type',
      't.upload_token',
      't.uploaded_at',
    ]);
  const toSlot = (row: Awaited<ReturnType<(typeof slotQuery)['executeTakeFirstOrThrow']>>): UploadSlot => ({
    targetId: row.id,
    targetIdentifier: row.identifier,
    orderRowId: row.order_id,
    key: quarantineKey(row.order_code, row.identifier),
    orderId: row.order_code,
    uploaderId: row.uploader_id,
    fileName: row.file_name,
    contentType: row.content_type,
    token: row.upload_token,
    uploaded: row.uploaded_at !== null,
  });

  return {
    byRowId,

    async byOrderId(orderId: string): Promise<Order | undefined> {
      const row = await orderQuery(db).where('o.order_id', '=', orderId).executeTakeFirst();
      return row && toOrder(row);
    },

    /** Orders the user is client or photographer of, newest first. */
    async ofParty(userId: number): Promise<Order[]> {
      const rows = await orderQuery(db)
        .where((eb) => eb.or([eb('o.client_id', '=', userId), eb('o.photographer_id', '=', userId)]))
        .orderBy('o.created_at', 'desc')
        .orderBy('o.id', 'desc')
        .execute();
      return rows.map(toOrder);
    },

    /**
     * Each order's small picture, by its row id: the smallest JPEG made of its first ready photo,
     * the photographer's (a deliverable) before the client's (a reference); none for an order with neither.
     */
    async thumbnails(orders: readonly Order[]): Promise<Map<number, string>> {
      const thumbnails = new Map<number, string>();
      if (orders.length === 0) return thumbnails;
      const photographerOf = new Map(orders.map((order) => [order.rowId, order.photographerId]));
      const rows = await db
        .selectFrom('order_targets')
        .select(['order_id', 'identifier', 'uploader_id', 'content_type', 'media'])
        .where('order_id', 'in', [...photographerOf.keys()])
        .where('state', '=', 'ready')
        .orderBy('id')
        .execute();
      const deliverableFirst = [...rows].sort(
        (a, b) =>
          Number(b.uploader_id === photographerOf.get(b.order_id)) -
          Number(a.uploader_id === photographerOf.get(a.order_id)),
      );
      for (const row of deliverableFirst) {
        if (thumbnails.has(row.order_id)) continue;
        const media = parseMedia(row.media);
        const smallest = media && smallestJpeg(media);
        if (smallest) thumbnails.set(row.order_id, urls.orderFile(row.identifier, smallest.name, false));
        // A picture from before the media pipeline is its own thumbnail.
        else if (!media && row.content_type.startsWith('image/'))
          thumbnails.set(row.order_id, urls.orderFile(row.identifier, null, false));
      }
      return thumbnails;
    },

    /**
     * Makes a change of the order's state (domain/orders.ts ORDER_TRANSITIONS) if the order is still
     * in a state it may leave: one conditional update, so of requests racing to change the order
     * one does it; false for the others.
     */
    async transition(order: Order, name: OrderTransition, data: TransitionData = {}): Promise<boolean> {
      const rule = ORDER_TRANSITIONS[name];
      let update = db
        .updateTable('event_orders')
        .set({
          ...('to' in rule ? { public_status: rule.to } : {}),
          ...('info' in rule ? { info_status: rule.info } : {}),
          ...(data.quote ? { quote: JSON.stringify(data.quote) } : {}),
          ...(data.totalCents !== undefined ? { total_cents: data.totalCents } : {}),
          ...(data.requirementsRequest !== undefined ? { requirements_request: data.requirementsRequest } : {}),
          ...(data.requirementsAnswer !== undefined ? { requirements_answer: data.requirementsAnswer } : {}),
          ...(data.declineReason !== undefined ? { decline_reason: data.declineReason } : {}),
        })
        .where('id', '=', order.rowId)
        .where((eb) => live(eb))
        .where('public_status', 'in', rule.from);
      if (data.whileQuote !== undefined) {
        // Stored as JSON.stringify wrote it, and parsing keeps its keys' order: the same text.
        update = data.whileQuote
          ? update.where('quote', '=', JSON.stringify(data.whileQuote))
          : update.where('quote', 'is', null);
      }
      const result = await update.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** A new sharing link for the order: whoever held the old one can no longer read it. */
    async resetSharing(orderRowId: number): Promise<string> {
      const sharingId = newSharingId();
      await db.updateTable('event_orders').set({ sharing_id: sharingId }).where('id', '=', orderRowId).execute();
      return sharingId;
    },

    /**
     * Inside a transaction, before a target changes: holds the order's row (a status change waits
     * for this transaction, and this one for a status change under way) if the order is open;
     * false when it is not (or not in `status`, when given). A guarded update of nothing, since SQLite has no SELECT ... FOR UPDATE.
     */
    async holdIfOpen(orderRowId: number, status: EventOrderStatus | null = null): Promise<boolean> {
      let update = db
        .updateTable('event_orders')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', orderRowId)
        .where((eb) => live(eb))
        .where('public_status', '!=', 'DECLINED');
      if (status) update = update.where('public_status', '=', status);
      const result = await update.executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Whether the photographer has a processed file on the order, so there is something to deliver. */
    async hasDeliverable(order: Order): Promise<boolean> {
      const row = await db
        .selectFrom('order_targets')
        .select('id')
        .where('order_id', '=', order.rowId)
        .where('uploader_id', '=', order.photographerId)
        .where('state', '=', 'ready')
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * The order's targets whose file has arrived (processing, ready or refused), in the order they
     * were added, as `view` sees them: a sharing-link holder sees the ready deliverables of a delivered order only.
     */
    async targets(order: Order, view: EventOrderView): Promise<Target[]> {
      let query = db
        .selectFrom('order_targets')
        .select(TARGET_COLUMNS)
        .where('order_id', '=', order.rowId)
        .where('state', '!=', 'waiting');
      if (view === 'sharedUser') {
        // What was delivered, once it was: nothing of a delivery still under way.
        if (order.publicStatus !== 'DELIVERED') return [];
        query = query.where('uploader_id', '=', order.photographerId).where('state', '=', 'ready');
      }
      const rows = await query.orderBy('id').execute();
      return rows.map((row) => toTarget(row, order, view));
    },

    /** The originals of the order's ready deliverables, for their ZIP. */
    async deliverableFiles(order: Order): Promise<{ key: string; fileName: string }[]> {
      const rows = await db
        .selectFrom('order_targets')
        .select(['file_path', 'file_name'])
        .where('order_id', '=', order.rowId)
        .where('uploader_id', '=', order.photographerId)
        .where('state', '=', 'ready')
        .orderBy('id')
        .execute();
      return rows.flatMap((row) => (row.file_path ? [{ key: row.file_path, fileName: row.file_name }] : []));
    },

    /** A new order, a request to the photographer; answers its id (`ord-` and 8 random characters). */
    async create(order: NewOrder): Promise<string> {
      const orderId = `ord-${randomBytes(6)
        .toString('base64url')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '0')}`;
      await db
        .insertInto('event_orders')
        .values({
          order_id: orderId,
          sharing_id: newSharingId(),
          client_id: order.clientId,
          photographer_id: order.photographerId,
          event_name: order.eventName,
          event_date: order.eventDate,
          location: order.location,
          package_name: order.packageName,
          public_status: 'ORDER_REQUEST',
          info_status: null,
          requirement_info: JSON.stringify(order.requirementInfo),
          discount_code: order.discountCode,
          total_cents: order.totalCents,
          paid_out_at: null,
          created_at: nowIso(),
        })
        .execute();
      return orderId;
    },

    /** A new target awaiting its file; the token is the permission to send it to the files host. */
    async addTarget(
      order: Order,
      uploaderId: number,
      file: { fileName: string; contentType: string; description: string },
    ): Promise<{ targetId: number; targetIdentifier: string; key: string; token: string }> {
      const targetIdentifier = `tgt-${randomBytes(9).toString('base64url')}`;
      const token = randomBytes(24).toString('base64url');
      const { id } = await db
        .insertInto('order_targets')
        .values({
          identifier: targetIdentifier,
          order_id: order.rowId,
          uploader_id: uploaderId,
          file_name: file.fileName,
          content_type: file.contentType,
          description: file.description,
          upload_token: token,
          created_at: nowIso(),
          state: 'waiting',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { targetId: id, targetIdentifier, key: quarantineKey(order.orderId, targetIdentifier), token };
    },

    /** The changed target, or undefined when the order has no such target uploaded by `uploaderId`. */
    async describeTarget(
      order: Order,
      view: EventOrderView,
      uploaderId: number,
      targetId: number,
      description: string,
    ): Promise<Target | undefined> {
      const row = await db
        .updateTable('order_targets')
        .set({ description })
        .where('id', '=', targetId)
        .where('order_id', '=', order.rowId)
        .where('uploader_id', '=', uploaderId)
        .where('state', '!=', 'waiting')
        .returning(TARGET_COLUMNS)
        .executeTakeFirst();
      return row && toTarget(row, order, view);
    },

    /** A target's order, for deciding who may remove it, and where its files are (or would be) stored: quarantine, original, and what the media job made. */
    async targetById(
      targetId: number,
    ): Promise<{ order: Order | undefined; uploaderId: number; keys: string[] } | undefined> {
      const row = await slotQuery.select(['t.file_path', 't.media']).where('t.id', '=', targetId).executeTakeFirst();
      return (
        row && {
          order: await byRowId(row.order_id),
          uploaderId: row.uploader_id,
          keys: [
            toSlot(row).key,
            ...(row.file_path ? [row.file_path] : []),
            ...(parseMedia(row.media)?.derivatives.map((d) => d.key) ?? []),
            ...(parseMedia(row.media)?.video?.files.map((d) => d.key) ?? []),
          ],
        }
      );
    },

    /**
     * A ready target's stored files, as the files host serves them: the original's key, type and
     * name, and what the media job made of it (null for a target uploaded before the pipeline).
     */
    async filesOf(
      targetIdentifier: string,
    ): Promise<{ key: string; contentType: string; fileName: string; media: TargetMedia | null } | undefined> {
      const row = await db
        .selectFrom('order_targets')
        .select(['file_path', 'content_type', 'file_name', 'media'])
        .where('identifier', '=', targetIdentifier)
        .where('state', '=', 'ready')
        .executeTakeFirst();
      return row?.file_path
        ? { key: row.file_path, contentType: row.content_type, fileName: row.file_name, media: parseMedia(row.media) }
        : undefined;
    },

    /** A target whose file waits for its media job, with what the job needs; undefined once it is done (or gone). */
    async processingTarget(targetIdentifier: string) {
      const row = await slotQuery
        .select('t.file_path')
        .where('t.identifier', '=', targetIdentifier)
        .where('t.state', '=', 'processing')
        .executeTakeFirst();
      return row?.file_path ? { ...toSlot(row), sourceKey: row.file_path } : undefined;
    },

    /**
     * Ends a target's processing: ready with what was made of it, or failed with the reason. One
     * conditional update: of two workers finishing the same target, one does; false for the other
     * (and when the target was removed meanwhile).
     */
    async finishProcessing(
      targetId: number,
      outcome: { state: 'ready'; media: TargetMedia } | { state: 'failed'; reason: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('order_targets')
        .set(
          outcome.state === 'ready'
            ? { state: 'ready', media: JSON.stringify(outcome.media) }
            : { state: 'failed', failure_reason: outcome.reason },
        )
        .where('id', '=', targetId)
        .where('state', '=', 'processing')
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /**
     * Adds pictures made after a target was ready (media/jobs/formats.ts: its AVIF) to its media. One
     * conditional update: only while the target is ready with the media `shown` (false when it
     * went, or another worker added its own first).
     */
    async addDerivatives(targetIdentifier: string, shown: TargetMedia, added: Derivative[]): Promise<boolean> {
      const result = await db
        .updateTable('order_targets')
        .set({ media: JSON.stringify({ ...shown, derivatives: [...shown.derivatives, ...added] }) })
        .where('identifier', '=', targetIdentifier)
        .where('state', '=', 'ready')
        .where('media', '=', JSON.stringify(shown))
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    /** Targets processing since before `before`: their job may have been lost before it was queued (the sweep sends it again). */
    async processingSince(before: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('order_targets')
        .select('identifier')
        .where('state', '=', 'processing')
        .where('uploaded_at', '<', before)
        .orderBy('id')
        .limit(limit)
        .execute();
      return rows.map((row) => row.identifier);
    },

    /**
     * Removes the target and answers where its files are, as the row said when it went (one
     * statement: a media job finishing at the same moment either finished before, and its files
     * are answered, or finds the target gone and removes what it made).
     */
    async removeTarget(targetId: number): Promise<string[]> {
      const row = await db
        .deleteFrom('order_targets')
        .where('id', '=', targetId)
        .returning(['file_path', 'media'])
        .executeTakeFirst();
      if (!row) return [];
      const media = parseMedia(row.media);
      return [
        ...(row.file_path ? [row.file_path] : []),
        ...(media?.derivatives.map((d) => d.key) ?? []),
        ...(media?.video?.files.map((d) => d.key) ?? []),
      ];
    },

    async uploadSlot(targetIdentifier: string): Promise<UploadSlot | undefined> {
      const row = await slotQuery.where('t.identifier', '=', targetIdentifier).executeTakeFirst();
      return row && toSlot(row);
    },

    /**
     * Targets still waiting for their file, added since `since` (older ones were abandoned: their
     * upload URL has expired), of one order or of all.
     */
    async pendingUploads(since: string, orderRowId?: number, limit = 500): Promise<UploadSlot[]> {
      let query = slotQuery.where('t.uploaded_at', 'is', null).where('t.created_at', '>=', since);
      if (orderRowId !== undefined) query = query.where('t.order_id', '=', orderRowId);
      return (await query.orderBy('t.id').limit(limit).execute()).map(toSlot);
    },

    /** Targets still waiting for their file that were added before `before` (abandoned), oldest first. */
    async abandonedUploads(before: string, limit: number): Promise<UploadSlot[]> {
      const query = slotQuery.where('t.uploaded_at', 'is', null).where('t.created_at', '<', before);
      return (await query.orderBy('t.id').limit(limit).execute()).map(toSlot);
    },

    /**
     * Records the target's file, which then waits for its media job; false when it already had one
     * (another instance or request was first).
     */
    async markUploaded(targetId: number, key: string, sizeBytes: number): Promise<boolean> {
      const result = await db
        .updateTable('order_targets')
        .set({ file_path: key, size_bytes: sizeBytes, uploaded_at: nowIso(), state: 'processing' })
        .where('id', '=', targetId)
        .where('uploaded_at', 'is', null)
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },
  };
}
