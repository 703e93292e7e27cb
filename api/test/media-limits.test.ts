import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pngDeclaring } from '../src/media/clips.js';
import { processImage } from '../src/media/images.js';
import { DEFAULT_QUEUE_OPTIONS, jobTimeLimit } from '../src/media/queueOptions.js';
import { defaultVideoLimits, type VideoLimits } from '../src/media/videoLimits.js';
import { VIDEO_REFUSALS } from '../src/media/videoRefusals.js';
import { processVideo } from '../src/media/videos.js';

const dir = mkdtempSync(join(tmpdir(), 'media-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A WebM made by Debian's ffmpeg from a lavfi source (`input`), `seconds` long, VP8 without audio. */
function webm(name: string, input: string, seconds: number, extra: string[] = []): string {
  const file = join(dir, name);
  const made = spawnSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    input,
    '-t',
    String(seconds),
    '-c:v',
    'libvpx',
    ...extra,
    file,
  ]);
  if (made.status !== 0) throw new Error(`ffmpeg could not make ${name}: ${String(made.stderr)}`);
  return file;
}

/**
 * The WebM at `file` with its Segment Info Duration (element 0x4489, an 8-byte float of
 * milliseconds at the default timecode scale) made to say `seconds`: a header that lies.
 */
function claimingDuration(file: string, seconds: number): string {
  const bytes = readFileSync(file);
  const at = bytes.indexOf(Buffer.from([0x44, 0x89, 0x88]));
  if (at < 0) throw new Error('no 8-byte Duration element');
  bytes.writeDoubleBE(seconds * 1000, at + 3);
  const patched = `${file}.patched.webm`;
  writeFileSync(patched, bytes);
  return patched;
}

let runs = 0;
/** processVideo with test-small limits, in a work folder of its own (`work`, kept for a look afterwards). */
function processWith(source: string, limits: Partial<VideoLimits>, work = mkdtempSync(join(dir, `work-${runs++}-`))) {
  return processVideo(source, 'video/webm', work, undefined, {
    ...defaultVideoLimits(Date.now() + 120_000),
    ...limits,
  });
}

/** What an uploader may read: none of a temporary path, nor of ffmpeg's or libvips's words. */
const plain = (reason: string) => {
  expect(reason).not.toContain('/');
  expect(reason).not.toMatch(/ffmpeg|ffprobe|vips|Invalid|error|exited|\(/i);
};

/** The reason a file was refused for; a file that was accepted fails the test here. */
function refusal(result: { ok: true } | { ok: false; reason: string }): string {
  if (result.ok) throw new Error('accepted, where a refusal was expected');
  return result.reason;
}

describe('video limits measured on the decoded stream', () => {
  it('refuses a 12 s WebM whose header claims 1 s once the decoder has made more than the cap', async () => {
    const honest = webm('long.webm', 'testsrc2=size=160x120:rate=15', 12, ['-b:v', '200k']);
    const lying = claimingDuration(honest, 1);
    const probe = spawnSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', lying]);
    expect(Number(String(probe.stdout).trim())).toBe(1);

    const refused = await processWith(lying, { maxSeconds: 5 });
    expect(refused).toEqual({ ok: false, reason: VIDEO_REFUSALS.tooLong(5) });
    expect(VIDEO_REFUSALS.tooLong(5)).toBe('This video is longer than 5 seconds.');
    expect(VIDEO_REFUSALS.tooLong(15 * 60)).toBe('This video is longer than 15 minutes.');

    // Within the cap, the duration recorded is the one measured, not the header's 1 s.
    const accepted = await processWith(lying, { maxSeconds: 30 });
    if (!accepted.ok) throw new Error(accepted.reason);
    expect(accepted.durationSeconds).toBeGreaterThan(11);
    expect(accepted.durationSeconds).toBeLessThan(13);
  }, 120_000);

  it('refuses a picture larger than the cap with a plain reason', async () => {
    const wide = webm('wide.webm', 'testsrc2=size=640x480:rate=15', 2);
    const refused = await processWith(wide, { maxSide: 320 });
    expect(refused).toEqual({ ok: false, reason: VIDEO_REFUSALS.tooLarge(320) });
    expect(VIDEO_REFUSALS.tooLarge(320)).toBe("This video's picture is too large (at most 320 x 320 pixels).");
  }, 60_000);

  it('refuses a picture whose 16K x 16K header is refused by the picture path, in plain words', async () => {
    const reason = refusal(await processImage(pngDeclaring(16_384, 16_384), 'image/png'));
    expect(reason).toMatch(/16384 x 16384 pixels; at most 100 million are accepted/);
    plain(reason);
  });

  it('kills ffmpeg and refuses once a noisy video makes more bytes than the cap', async () => {
    // Long enough that ffmpeg is still writing well after its first segment passes the cap.
    const noisy = webm('noise.webm', 'nullsrc=size=160x120:rate=25,geq=random(1)*255:128:128', 8, ['-b:v', '4M']);
    const capped = mkdtempSync(join(dir, 'work-capped-'));
    const refused = await processWith(noisy, { maxOutputBytes: 64 * 1024 }, capped);
    expect(refused).toEqual({ ok: false, reason: VIDEO_REFUSALS.tooMuch });
    // The same video under the default cap is made.
    const whole = mkdtempSync(join(dir, 'work-whole-'));
    expect((await processWith(noisy, {}, whole)).ok).toBe(true);
    // Killed as it wrote, not refused once it had finished: the media playlist, which ffmpeg writes
    // as a VOD run ends, is missing, and fewer segments were written than the whole video makes.
    const ladder = (work: string) => readdirSync(join(work, 'ladder', '360p')).sort();
    expect(ladder(whole)).toContain('index.m3u8');
    expect(ladder(capped)).not.toContain('index.m3u8');
    const segments = (work: string) => ladder(work).filter((name) => name.endsWith('.m4s')).length;
    expect(segments(capped)).toBeLessThan(segments(whole));
  }, 120_000);

  it('stops every run at the deadline', async () => {
    const clip = webm('short.webm', 'testsrc2=size=160x120:rate=15', 2);
    expect(await processWith(clip, { deadline: Date.now() })).toEqual({ ok: false, reason: VIDEO_REFUSALS.tooSlow });
  }, 60_000);

  it("answers a corrupt file's refusal in the product's words, without paths or ffmpeg's", async () => {
    const clip = readFileSync(webm('cut.webm', 'testsrc2=size=160x120:rate=15', 4));
    // The header whole, the frames cut short and overwritten: the probe reads it, the decoder does not.
    const corrupt = Buffer.concat([clip.subarray(0, 600), Buffer.alloc(4000, 0x5a)]);
    const noise = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(20_000, 0x5a)]);
    for (const [name, bytes] of [
      ['corrupt.webm', corrupt],
      ['noise.webm', noise],
    ] as const) {
      const file = join(dir, `bad-${name}`);
      writeFileSync(file, bytes);
      const refused = await processWith(file, {});
      expect(refused).toEqual({ ok: false, reason: VIDEO_REFUSALS.unreadable });
      plain(refusal(refused));
    }
  }, 60_000);
});

describe("a media job's time limit", () => {
  it('ends its decoding and its recording before pg-boss expires and restarts the job', () => {
    const timeout = DEFAULT_QUEUE_OPTIONS.jobTimeoutMs;
    const limit = jobTimeLimit(1_000, timeout);
    expect(limit.decodeBy).toBeLessThan(limit.recordBy);
    expect(limit.recordBy).toBeLessThan(1_000 + timeout);
    // The longest video's runs fit in the decoding time at the default.
    expect(limit.decodeBy - 1_000).toBeGreaterThan(30 * 60_000);
  });
});
