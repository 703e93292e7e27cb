import { z } from 'zod';
import { uploadLimit } from '../../config.js';
import { uploadRefusal } from '../../domain/orders.js';
import { HttpError, forbidden, notFound } from '../../http/errors.js';
import { fields, noNul, type Router } from '../../http/route.js';
import type { Services } from '../../services.js';
import { orderViews } from '../../views/orders.js';
import { actorOf, holdForFiles, orderOf, requireParty } from './access.js';

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

/** The parties' files on an order: adding one (its upload), describing it, removing it. */
export function registerOrderFileRoutes(r: Router, services: Services): void {
  const { repos, files } = services;
  const views = orderViews(repos.urls);

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
      const order = await orderOf(repos, orderId);
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
      const order = await orderOf(repos, orderId);
      requireParty(order, user);
      const actor = actorOf(order, user);
      const record = await repos.transaction(async (tx) => {
        await holdForFiles(tx, order, actor);
        return tx.orders.describeTarget(order, user.id, targetId, description);
      });
      if (!record) throw notFound('Target');
      return { target: views.target(record, order, actor) };
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
}
