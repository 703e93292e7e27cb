/**
 * The decoding child (media/decoderProcess.ts starts it): takes pictures over IPC, decodes and
 * remakes each with sharp (media/images.ts) and answers it by its id, several at once as the
 * parent sends them. It holds nothing but the bytes it was sent: no database, no store, no secret
 * in its environment. It ends with its parent (the IPC channel closing).
 */
import { messageOf } from '@marketplace/shared/errors';
import { type ImageResult, processImage } from './images.js';
import type { PictureSet } from './pictureSets.js';

/** What the parent sends the child. */
export interface DecodeRequest {
  id: number;
  bytes: Uint8Array;
  declaredType: string;
  set: PictureSet;
  lanes: number | undefined;
}

/** What the child answers: the result, or `failed` for a failure that is not the file's (the job's to retry). */
export type DecodeAnswer = { id: number; result: ImageResult } | { id: number; failed: string };

process.on('message', (request: DecodeRequest) => {
  void processImage(request.bytes, request.declaredType, request.set, request.lanes).then(
    (result: ImageResult) => process.send?.({ id: request.id, result } satisfies DecodeAnswer),
    (error: unknown) => {
      console.error('[media] the decoder failed:', error);
      process.send?.({ id: request.id, failed: messageOf(error) } satisfies DecodeAnswer);
    },
  );
});
process.on('disconnect', () => process.exit(0));
