import type Hls from 'hls.js';

export type HlsClass = typeof Hls;

let loading: Promise<HlsClass> | undefined;

/** hls.js is fetched only when a video first needs it (not on pages without video), then reused. */
export function loadHls(): Promise<HlsClass> {
  loading ??= import(/* webpackChunkName: "hls" */ 'hls.js').then((m) => m.default);
  return loading;
}

/**
 * Whether a url is an HLS playlist (the API serves videos as .m3u8): by its path, or by the file
 * a signed link names in its query (`/files/content/<item>?f=master.m3u8&exp=...&sig=...`).
 */
export const isHlsUrl = (url: string) => /\.m3u8($|[?&#])/i.test(url);
