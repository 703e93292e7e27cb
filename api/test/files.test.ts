import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './harness.js';

let t: TestApi;
beforeAll(async () => {
  t = await startTestApi();
  // A secret beside the media folder, and a symlink inside it pointing out.
  writeFileSync(join(t.dir, 'secret.txt'), 'top secret');
  symlinkSync(t.dir, join(t.config.mediaDir, 'escape'));
});
afterAll(() => t.close());

const download = (filePath: string, fileName = 'x') =>
  fetch(`${t.url}/download?${new URLSearchParams({ filePath, fileName }).toString()}`);

describe('GET /download', () => {
  it('answers a media file as an attachment named by fileName', async () => {
    const res = await download('events/summer-jazz-night-2026/photo-001.png', 'Stage lights.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Stage lights.png"; filename*=UTF-8''Stage%20lights.png`,
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(bytes[1]).toBe(0x50); // 'P' of the PNG signature
  });

  it('keeps a hostile fileName out of the header', async () => {
    const res = await download('events/summer-jazz-night-2026/photo-001.png', 'a"; evil=1\r\n.png');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="a__ evil_1__\.png"/);
  });

  it('answers 404 for a missing file inside the folder', async () => {
    expect((await download('events/nothing-here.png')).status).toBe(404);
  });

  it.each([
    ['../secret.txt'],
    ['../../etc/passwd'],
    ['/etc/passwd'],
    ['events/../../secret.txt'],
    ['..\\secret.txt'],
    ['%2e%2e/secret.txt'],
    ['%252e%252e/secret.txt'],
    ['events/%2F..%2F..%2Fsecret.txt'],
    ['C:/Windows/win.ini'],
    ['escape/secret.txt'],
    ['events//photo-001.png'],
    [''],
  ])('refuses %j with 400', async (filePath) => {
    const res = await download(filePath);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: string };
    expect(body.error).toMatch(/filePath/);
  });

  it('refuses traversal written raw into the URL, encoded once and twice', async () => {
    for (const raw of [
      '..%2Fsecret.txt',
      '%2E%2E%2Fsecret.txt',
      '%252E%252E%252Fsecret.txt',
      '..%5Csecret.txt',
      'events%00.png',
    ]) {
      const res = await fetch(`${t.url}/download?filePath=${raw}&fileName=x`);
      expect(res.status, raw).toBe(400);
    }
  });
});

describe('GET /media', () => {
  it('serves HLS playlists and segments with their types and a cache lifetime', async () => {
    const res = await fetch(`${t.url}/media/videos/video-007/playlist.m3u8`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('refuses encoded traversal in the path', async () => {
    for (const path of [
      '/media/..%2Fdb.sqlite',
      '/media/%2e%2e/db.sqlite',
      '/media/escape/secret.txt',
      '/media/events/%E0%A4%A',
    ]) {
      const res = await fetch(`${t.url}${path}`);
      expect([400, 404], path).toContain(res.status);
      expect(await res.text()).not.toContain('top secret');
    }
  });
});
