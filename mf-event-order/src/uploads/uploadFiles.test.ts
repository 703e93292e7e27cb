import { Blob as NodeBlob } from 'node:buffer';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { useMswServer } from '@marketplace/shared/test-utils';
import { uploadFiles, type Compress } from './uploadFiles.js';

const server = useMswServer();

const image = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

/** The API's two steps: target/add hands out an upload URL, the file is PUT there. */
function api(failOnPut?: string) {
  const log: string[] = [];
  server.use(
    http.post('http://api.test/v2/eventorder/target/add', async ({ request }) => {
      const form = Object.fromEntries((await request.formData()).entries()) as Record<string, string>;
      log.push(`add ${form.fileName} ${form.contentType} ${form.orderId}`);
      return HttpResponse.json({
        uploadUrl: `http://files.test/upload/${form.fileName}?token=t`,
        targetId: log.length,
        targetIdentifier: 'x',
      });
    }),
    http.put('http://files.test/upload/:name', async ({ request, params }) => {
      log.push(
        `put ${String(params.name)} ${request.headers.get('content-type')} ${(await request.arrayBuffer()).byteLength}`,
      );
      return params.name === failOnPut
        ? HttpResponse.json({ error: 'too big' }, { status: 413 })
        : HttpResponse.json({});
    }),
  );
  return log;
}

// The compressed output (2 bytes). A Node Blob: jsdom's Blob is not a body Node's fetch can send,
// where a browser has only one kind.
const shrink: Compress = async (file) => new NodeBlob([new Uint8Array(2)], { type: file.type }) as unknown as Blob;

describe('uploadFiles', () => {
  it('compresses each image to at most 1 MB, then adds a target and PUTs the file, one at a time, in order', async () => {
    const log = api();
    const compress = vi.fn(shrink);
    const progress: string[] = [];
    const n = await uploadFiles(
      'ord-1',
      [image('a.png'), image('b.png')],
      (i, total) => progress.push(`Uploaded ${i}/${total}`),
      compress,
    );
    expect(n).toBe(2);
    expect(compress.mock.calls.map(([file, options]) => [file.name, options])).toEqual([
      ['a.png', { maxSizeMB: 1 }],
      ['b.png', { maxSizeMB: 1 }],
    ]);
    expect(log).toEqual([
      'add a.png image/png ord-1',
      'put a.png image/png 2',
      'add b.png image/png ord-1',
      'put b.png image/png 2',
    ]);
    expect(progress).toEqual(['Uploaded 0/2', 'Uploaded 1/2', 'Uploaded 2/2']);
  });

  it('stops silently at the first failure; what was uploaded stays uploaded', async () => {
    const log = api('b.png');
    const progress: string[] = [];
    const n = await uploadFiles(
      'ord-1',
      [image('a.png'), image('b.png'), image('c.png')],
      (i, total) => progress.push(`${i}/${total}`),
      shrink,
    );
    expect(n).toBe(1);
    expect(log).toEqual([
      'add a.png image/png ord-1',
      'put a.png image/png 2',
      'add b.png image/png ord-1',
      'put b.png image/png 2',
    ]);
    expect(progress).toEqual(['0/3', '1/3']);
  });

  it('sends a video as it is (not compressed), with its type', async () => {
    const log = api();
    const compress = vi.fn(shrink);
    const clip = new File([new Uint8Array(5)], 'clip.mp4', { type: 'video/mp4' });
    expect(await uploadFiles('ord-1', [clip], () => {}, compress)).toBe(1);
    expect(compress).not.toHaveBeenCalled();
    // (jsdom's File is not a body Node's fetch sends as bytes, so its size here says nothing.)
    expect(log.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'add clip.mp4 video/mp4',
      'put clip.mp4 video/mp4',
    ]);
  });

  it('does not upload a file that is neither an image nor a video it takes', async () => {
    const log = api();
    const compress = vi.fn(shrink);
    const pdf = new File(['%PDF'], 'contract.pdf', { type: 'application/pdf' });
    const avi = new File(['RIFF'], 'old.avi', { type: 'video/x-msvideo' });
    const n = await uploadFiles('ord-1', [pdf, avi, image('a.png')], () => {}, compress);
    expect(n).toBe(1);
    expect(compress).toHaveBeenCalledTimes(1);
    expect(log.filter((l) => l.includes('contract') || l.includes('old.avi'))).toEqual([]);
  });
});
