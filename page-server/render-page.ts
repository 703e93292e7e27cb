// Pages rendered on the server (issue "Pages that arrive rendered"): the shell's server build
// (build-preset: `<shell>/dist-server/render.cjs`) renders each page with the remotes' own server
// builds, at the versions the page's composition names, fetched once per version
// (server-builds.mjs) and run with the shell build's one copy of every singleton
// (server-remotes.mjs). A page that cannot be rendered is served as composed, for the browser
// to render: never an error page.
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { HostRenderer, RenderBudgets, RenderedDocument } from '@marketplace/shared/render-contract';
import { compositionBlocks } from './page-composition.ts';
import { serverBuilds } from './server-builds.mjs';
import { serverRemotes } from './server-remotes.mjs';

const require = createRequire(import.meta.url);

/**
 * Where the host's server build is, from its browser build's folder: beside a `dist/`; none for
 * another build (the single bundle's `dist-single/` renders in the browser only).
 */
export const rendererOf = (distDir: string): string | null =>
  basename(resolve(distDir)) === 'dist' ? join(distDir, '..', 'dist-server', 'render.cjs') : null;

// The render contract with the shell's server build, typed once (shared/src/platform/render.ts).
export type { RenderedDocument };

/** A bound on the renders running and waiting at once (renderLimit). */
export interface RenderLimit {
  run<T>(task: () => Promise<T>): Promise<T | null>;
  readonly running: number;
  readonly waiting: number;
}

/**
 * At most `concurrency` tasks at once and `queue` more waiting, each `waitMs` at most; past that
 * a task is refused (null), and its page goes out unrendered: a burst makes some pages the
 * browser's, never a queue that grows until every page is late.
 */
export function renderLimit({
  concurrency,
  queue,
  waitMs = 1000,
}: {
  concurrency: number;
  queue: number;
  waitMs?: number;
}): RenderLimit {
  let running = 0;
  /** Each waiter is handed the slot of the task that ends, so none is taken in between. */
  const waiting: (() => void)[] = [];
  return {
    async run<T>(task: () => Promise<T>): Promise<T | null> {
      if (running < concurrency) running++;
      else if (waiting.length < queue) {
        // A page that waited `waitMs` for a slot goes out unrendered: its visitor would rather
        // have the page than wait on a render, and nginx has stopped waiting by 5 s anyway.
        const handed = await new Promise<boolean>((resolve) => {
          const take = () => {
            clearTimeout(timer);
            resolve(true);
          };
          const timer = setTimeout(() => {
            waiting.splice(waiting.indexOf(take), 1);
            resolve(false);
          }, waitMs);
          waiting.push(take);
        });
        if (!handed) return null;
      } else return null;
      try {
        return await task();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/**
 * Which server code a page server runs: a remote's configured manifest (the deployment's own
 * deploy, run as deployed: there is no release record to hold it to), or a version's manifest
 * inside the release store's folder (`<store>/<remote>/<version>/mf-manifest.json`), which must
 * then be the one released: its manifest's and every server file's SHA-256 as the store's own
 * record of that version holds them (releases/store.mjs `recordPath`; checked by
 * server-builds.mjs). The record's address is made here from the configured store and the
 * version's name, never read from the manifest, so whoever can write a manifest cannot vouch for
 * it. Anything else is refused, whatever a discovery document or an address names: another
 * origin, a path of the store's origin outside its folder (`../uploads/…`), a developer's
 * loopback build (never rendered on the server).
 * Returns, for a manifest URL, null for a configured remote or the URL of the store's record of
 * the version; throws for one not trusted. The record holds files to what was released wherever
 * they are served from, not against whoever can rewrite the store itself.
 */
export function serverCodeTrust(config: {
  remotes?: Record<string, string>;
  discoveryUrl?: string;
}): (manifestUrl: string) => string | null {
  const parse = (url: unknown) =>
    typeof url === 'string' && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol) ? new URL(url) : null;
  const configured = new Set(
    Object.values(config.remotes ?? {})
      .map(parse)
      .filter((url) => url !== null)
      .map((url) => url.href),
  );
  const storeUrl = parse(config.discoveryUrl) ? new URL('.', config.discoveryUrl as string) : null;
  const storeSegments = storeUrl ? pathSegments(storeUrl.pathname) : null;
  return (manifestUrl) => {
    const url = parse(manifestUrl);
    if (url && configured.has(url.href)) return null;
    if (url && storeUrl && storeSegments && url.origin === storeUrl.origin) {
      const segments = pathSegments(url.pathname);
      // Inside the store's folder, segment by segment: `/store` holds `/store/x`, not `/store-evil/x`;
      // and a version's manifest there, whose record the store keeps beside the version's folder.
      if (segments && storeSegments.every((segment, i) => segments[i] === segment)) {
        const [remote, version, file, ...more] = segments.slice(storeSegments.length);
        if (remote && version && file === 'mf-manifest.json' && !more.length && VERSION_NAME.test(remote + version))
          return new URL(`${remote}/${version}.json`, storeUrl).href;
      }
    }
    throw new Error(
      `${manifestUrl} is neither a configured remote nor a version's manifest in the release store: not run on the server`,
    );
  };
}

/** The names of a remote and a version in the store (letters, digits, `-`, `_`): safe in a URL as they are. */
const VERSION_NAME = /^[\w-]+$/;

/**
 * A URL path's segments as the server that serves it will read them (decoded), or null for a path
 * a server could read as another: an encoded separator (`%2F`, `%5C`), a dot segment however
 * written (`..`, `%2e%2e`: the URL parser resolves those it sees, a server those it decodes), a
 * malformed or doubled escape, a NUL, or an empty segment (`//`). The trailing slash of a folder
 * ends no segment. `pathname` as the URL parser left it (dot segments it saw resolved, escapes kept).
 */
export function pathSegments(pathname: string): string[] | null {
  if (!pathname.startsWith('/') || /%(2f|5c|00)/i.test(pathname) || pathname.includes('\\')) return null;
  const raw = pathname.slice(1).split('/');
  if (raw.at(-1) === '') raw.pop();
  const segments: string[] = [];
  for (const part of raw) {
    let segment;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return null;
    }
    // A `%` left after decoding (`%252e`) would be another path to a server that decodes twice.
    if (segment === '' || segment === '.' || segment === '..' || /[/\\\0%]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

/** A positive whole number from the environment, or `fallback`. */
const positive = (value: string | undefined, fallback: number) =>
  Number.isInteger(Number(value)) && Number(value) > 0 ? Number(value) : fallback;

/** The shell's pages rendered on this server. */
export interface PageRenderer {
  /**
   * The page for `url`, rendered into `template` (the app's page with its composition filled),
   * or null when this process is rendering all it may (renderLimit): the page is then the browser's.
   */
  render(request: { template: string; url: string; cookie: string; origin: string }): Promise<RenderedDocument | null>;
  limit: RenderLimit;
}

/**
 * The page renderer of a host whose browser build is in `distDir`, or null when it has no server
 * build (the single bundle, a development build) or rendering is switched off
 * (`SERVER_RENDERING=off`: the bench's client-rendered federated page).
 * From the environment: PAGE_DATA_DEADLINE_MS (how long a page waits for the API; the shell's
 * default, 500 ms, when unset), PAGE_RENDER_CONCURRENCY (renders at once, 4) and
 * PAGE_RENDER_QUEUE (renders waiting, 32).
 */
export function pageRenderer({
  distDir,
  env = process.env,
  cacheDir,
  maxVersions = 16,
  budgets,
}: {
  distDir: string;
  env?: NodeJS.ProcessEnv;
  cacheDir?: string;
  maxVersions?: number;
  budgets?: Partial<RenderBudgets>;
}): PageRenderer | null {
  const file = rendererOf(distDir);
  if (env.SERVER_RENDERING === 'off' || !file || !existsSync(file)) return null;
  const dataMs = positive(env.PAGE_DATA_DEADLINE_MS, 0);
  const pageBudgets = { ...(dataMs > 0 && { dataMs }), ...budgets };
  const limit = renderLimit({
    concurrency: positive(env.PAGE_RENDER_CONCURRENCY, 4),
    queue: positive(env.PAGE_RENDER_QUEUE, 32),
  });
  const host = require(file) as HostRenderer;
  const remotes = serverRemotes({ shared: host.singletons, maxVersions });
  // Its own folder by default: two page servers in one process (tests) fetch their remotes each.
  const builds = serverBuilds({ dir: cacheDir ?? mkdtempSync(join(tmpdir(), 'page-server-builds-')) });
  /** The folder each version's server build runs from, by its browser manifest's URL. */
  const folders = new Map<string, string>();
  /** The remote modules of one page, from trusted code only (serverCodeTrust); `config` is the page's runtime config. */
  const loaderFor = (config: {
    remotes?: Record<string, string>;
    discoveryUrl?: string;
  }): Parameters<HostRenderer['renderDocument']>[0]['load'] => {
    const trust = serverCodeTrust(config);
    return async ({ manifestUrl, manifest, exposed }) => {
      const record = trust(manifestUrl);
      const folder = await builds.folderOf(manifestUrl, manifest, record ? { record } : {});
      folders.set(manifestUrl, folder);
      return remotes.load(folder, exposed);
    };
  };
  // Where a remote's code runs from, so the shell's render can tell which remote threw (by the
  // error's stack) and the page's beacon counts it against that remote's version (issue 39, item 1).
  const sourceOf = (manifestUrl: string) => folders.get(manifestUrl);

  return {
    async render({ template, url, cookie, origin }) {
      const [block] = compositionBlocks(template);
      const composition = JSON.parse(block ?? 'null');
      if (!composition?.config) throw new Error('the page has no runtime config to render with');
      const load = loaderFor(composition.config);
      return limit.run(() =>
        host.renderDocument({ template, url, cookie, origin, composition, load, sourceOf, budgets: pageBudgets }),
      );
    },
    limit,
  };
}
