import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { allowOrigin, crossOriginFiles, useMswServer } from '@marketplace/shared/test-utils';
import { uploadFiles, type Compress, type FileUpload } from './uploadFiles.js';

const server = useMswServer();

const image = (name: string) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], name, { type: 'image/png' });

/** The API's two steps: target/add hands out an upload URL, the file is PUT there (`refuse` answers some PUTs). */
function api(refuse: Record<string, () => Response> = {}) {
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
    ...crossOriginFiles(
      'http://files.test',
      http.put('http://files.test/upload/:name', async ({ request, params }) => {
        log.push(
          `put ${String(params.name)} ${request.headers.get('content-type')} ${(await request.arrayBuffer()).byteLength}`,
        );
        return allowOrigin(refuse[String(params.name)]?.() ?? HttpResponse.json({}));
      }),
    ),
  );
  return log;
}

// The compressed output (2 bytes), sent by the page's XMLHttpRequest.
const shrink: Compress = async (file) => new Blob([new Uint8Array(2)], { type: file.type });

/** Each file's changes as `index state[ detail]`. */
function recorder() {
  const seen: string[] = [];
  const onChange = (i: number, upload: FileUpload) => {
    const detail =
      upload.state === 'sending'
        ? ` ${upload.loaded}/${upload.total}`
        : upload.state === 'sent'
          ? ` #${upload.targetId}`
          : upload.state === 'refused'
            ? `: ${upload.reason}`
            : '';
    seen.push(`${i} ${upload.state}${detail}`);
  };
  return { seen, onChange };
}

describe('uploadFiles', () => {
  it("compresses each image to at most 1 MB, then adds a target and sends it, one at a time, in order, with each file's progress", async () => {
    const log = api();
    const compress = vi.fn(shrink);
    const { seen, onChange } = recorder();
    const n = await uploadFiles('ord-1', [image('a.png'), image('b.png')], onChange, compress);
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
    // The bytes sent come from the upload's progress events (XMLHttpRequest's).
    expect(seen).toEqual([
      '0 waiting',
      '1 waiting',
      '0 preparing',
      '0 sending 0/2',
      '0 sending 2/2',
      '0 sent #1',
      '1 preparing',
      '1 sending 0/2',
      '1 sending 2/2',
      '1 sent #3',
    ]);
  });

  it('says why a file was refused, in words, and still sends the files after it; what was sent stays sent', async () => {
    const log = api({
      'b.png': () => HttpResponse.json({ error: 'The file is larger than 5242880 bytes' }, { status: 413 }),
      'c.png': () => HttpResponse.json({ error: 'The file is not a image/png image' }, { status: 400 }),
      'd.png': () => HttpResponse.json({ error: 'boom' }, { status: 500 }),
      'e.png': () => HttpResponse.error(),
    });
    const { seen, onChange } = recorder();
    const files = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png', 'f.png'].map(image);
    expect(await uploadFiles('ord-1', files, onChange, shrink)).toBe(2);
    expect(log.filter((line) => line.startsWith('put')).map((line) => line.split(' ')[1])).toEqual([
      'a.png',
      'b.png',
      'c.png',
      'd.png',
      'e.png',
      'f.png',
    ]);
    expect(seen.filter((line) => / (sent|refused)/.test(line))).toEqual([
      '0 sent #1',
      '1 refused: Too large: at most 5 MB',
      '2 refused: The file is not a image/png image',
      '3 refused: The server could not take it: try again later',
      '4 refused: The connection was lost: try again',
      '5 sent #11',
    ]);
  });

  it('refuses at once, unsent, a file that is not an image or a video the order takes, and an empty one; the rest go', async () => {
    const log = api();
    const compress = vi.fn(shrink);
    const { seen, onChange } = recorder();
    const files = [
      new File(['hello'], 'notes.txt', { type: 'text/plain' }),
      new File(['%PDF'], 'contract.pdf', { type: 'application/pdf' }),
      new File(['RIFF'], 'old.avi', { type: 'video/x-msvideo' }),
      new File([], 'empty.png', { type: 'image/png' }),
      image('a.png'),
    ];
    expect(await uploadFiles('ord-1', files, onChange, compress)).toBe(1);
    expect(compress).toHaveBeenCalledTimes(1);
    expect(log).toEqual(['add a.png image/png ord-1', 'put a.png image/png 2']);
    // Said before anything is sent, not after the files before them.
    expect(seen.slice(0, 5)).toEqual([
      '0 refused: Not an image or a video',
      '1 refused: Not an image or a video',
      '2 refused: Not a video this order takes (MP4, MOV or WebM)',
      '3 refused: The file is empty',
      '4 waiting',
    ]);
  });

  it('refuses an image that cannot be read (its compression fails) without asking the API, and goes on', async () => {
    const log = api();
    const compress = vi.fn<Compress>(async (file, options) => {
      if (file.name === 'broken.png') throw new Error('The file given is not an image');
      return shrink(file, options);
    });
    const { seen, onChange } = recorder();
    expect(await uploadFiles('ord-1', [image('broken.png'), image('a.png')], onChange, compress)).toBe(1);
    expect(seen).toContain('0 refused: Not a readable image');
    expect(log.some((line) => line.includes('broken'))).toBe(false);
  });

  it("gives the API's reason for refusing a target, without the field it names", async () => {
    server.use(
      http.post('http://api.test/v2/eventorder/target/add', () =>
        HttpResponse.json(
          {
            error:
              "Invalid field 'contentType': Only images (PNG, JPEG, WebP, GIF) and videos (MP4, MOV, WebM) can be uploaded",
            field: 'contentType',
          },
          { status: 400 },
        ),
      ),
    );
    const { seen, onChange } = recorder();
    await uploadFiles('ord-1', [image('a.png')], onChange, shrink);
    expect(seen.at(-1)).toBe(
      '0 refused: Only images (PNG, JPEG, WebP, GIF) and videos (MP4, MOV, WebM) can be uploaded',
    );
  });

  it('sends a video as it is (not compressed), with its type', async () => {
    const log = api();
    const compress = vi.fn(shrink);
    const clip = new File([new Uint8Array(5)], 'clip.mp4', { type: 'video/mp4' });
    const { seen, onChange } = recorder();
    expect(await uploadFiles('ord-1', [clip], onChange, compress)).toBe(1);
    expect(compress).not.toHaveBeenCalled();
    expect(seen).not.toContain('0 preparing');
    // (jsdom's File is not a body Node's Request sends as bytes, so its size here says nothing.)
    expect(log.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      'add clip.mp4 video/mp4',
      'put clip.mp4 video/mp4',
    ]);
  });
});
