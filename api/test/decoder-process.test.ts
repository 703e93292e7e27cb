/**
 * Pictures are decoded in a child process under a memory limit (media/decoderProcess.ts), even
 * with the inline worker (`npm start`): a decoder that crashes on a file, or allocates past the
 * limit, ends only the child. Its job fails with a plain reason, the API goes on answering, and
 * the next picture is processed as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradientPng } from '../src/db/png.js';
import { PICTURE_TOO_SLOW, processImageApart } from '../src/media/decoderProcess.js';
import { PAGE_PICTURES } from '../src/media/pictureSets.js';
import { processed, startTestApi, type TestApi, type TestClient } from './harness.js';

// What makes the decoding process kill itself as a crashing decoder would (media/images.ts).
const MARKER = 'decoder-crash-test-marker';
const ORDER = 'ord-1005';
let t: TestApi;
let clara: TestClient;

beforeAll(async () => {
  process.env.MEDIA_DECODER_CRASH_MARKER = MARKER;
  t = await startTestApi();
  clara = await t.as('clara');
});
afterAll(async () => {
  delete process.env.MEDIA_DECODER_CRASH_MARKER;
  await t.close();
});

async function upload(fileName: string, bytes: Uint8Array) {
  const added = await clara.call('addTarget', { orderId: ORDER, description: '', fileName, contentType: 'image/png' });
  expect(added.status).toBe(200);
  const sent = await fetch(added.body.uploadUrl.replace(t.config.filesOrigin, t.url), {
    method: 'PUT',
    body: new Blob([new Uint8Array(bytes)]),
    headers: { 'content-type': 'image/png' },
  });
  expect(sent.status).toBe(200);
  return added.body.targetIdentifier;
}

describe('a decoder dying on a file', () => {
  it('fails that job with a plain reason while the API keeps answering, and the next picture is made', async () => {
    const crashing = await upload('crash.png', Buffer.concat([gradientPng(200, 100, 3), Buffer.from(MARKER)]));
    const failed = await processed(clara, ORDER, crashing);
    expect([failed.state, failed.failureReason, failed.targetURLs]).toEqual([
      'failed',
      'This image could not be processed within our limits',
      [],
    ]);
    expect((await fetch(`${t.url}/health`)).status).toBe(200);

    const good = await processed(clara, ORDER, await upload('good.png', gradientPng(200, 100, 3)));
    expect(good.state).toBe('ready');
    expect(good.targetURLs.length).toBeGreaterThan(0);
  });
});

describe('a picture past its time to decode', () => {
  it('is refused in plain words and its decoder ended, and the next picture is made by a new one', async () => {
    const late = await processImageApart(gradientPng(400, 300, 5), 'image/png', PAGE_PICTURES, undefined, Date.now());
    expect(late).toEqual({ ok: false, reason: PICTURE_TOO_SLOW });
    const next = await processImageApart(
      gradientPng(400, 300, 5),
      'image/png',
      PAGE_PICTURES,
      undefined,
      Date.now() + 60_000,
    );
    expect(next.ok).toBe(true);
  });
});
