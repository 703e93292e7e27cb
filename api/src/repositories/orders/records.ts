import type { OrderQuote, RequirementInfo, TargetState } from '@marketplace/shared/contract';
import type { Db } from '../../db/database.js';
import type { Order } from '../../domain/orders.js';
import { quarantineKey } from '../../files/paths.js';
import { parseMedia, type TargetMedia } from '../../media/derivatives.js';

/** Every order query reads the order with its parties' names, so one mapper reads them all. */
export const orderQuery = (db: Db) =>
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

export const toOrder = (row: OrderRow): Order => ({
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

/** A reference picture or deliverable as stored, once its file came (or while it is awaited). */
export interface TargetRecord {
  id: number;
  uploaderId: number;
  identifier: string;
  fileName: string;
  contentType: string;
  description: string;
  uploadedAt: string | null;
  state: TargetState;
  failureReason: string | null;
  /** What the media job made of its file; null before (or for one uploaded before the pipeline). */
  media: TargetMedia | null;
}

export const TARGET_COLUMNS = [
  'id',
  'uploader_id',
  'identifier',
  'file_name',
  'content_type',
  'description',
  'uploaded_at',
  'state',
  'failure_reason',
  'media',
] as const;

export const toTargetRecord = (row: {
  id: number;
  uploader_id: number;
  identifier: string;
  file_name: string;
  content_type: string;
  description: string;
  uploaded_at: string | null;
  state: TargetState;
  failure_reason: string | null;
  media: string | null;
}): TargetRecord => ({
  id: row.id,
  uploaderId: row.uploader_id,
  identifier: row.identifier,
  fileName: row.file_name,
  contentType: row.content_type,
  description: row.description,
  uploadedAt: row.uploaded_at,
  state: row.state,
  failureReason: row.failure_reason,
  media: parseMedia(row.media),
});

/** A ready target's file, of one of a list of orders: what the list's small pictures are chosen from. */
export interface ReadyFile {
  orderRowId: number;
  identifier: string;
  uploaderId: number;
  contentType: string;
  media: TargetMedia | null;
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

/** A target with its order's code: what an upload slot is read from. */
export const slotQuery = (db: Db) =>
  db
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
type SlotRow = Awaited<ReturnType<ReturnType<typeof slotQuery>['executeTakeFirstOrThrow']>>;

export const toSlot = (row: SlotRow): UploadSlot => ({
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

/** Where a target's processed files are: the original's and what the media job made of it. */
export const storedKeys = (row: { file_path: string | null; media: string | null }): string[] => {
  const media = parseMedia(row.media);
  return [
    ...(row.file_path ? [row.file_path] : []),
    ...(media?.derivatives.map((d) => d.key) ?? []),
    ...(media?.video?.files.map((d) => d.key) ?? []),
  ];
};
