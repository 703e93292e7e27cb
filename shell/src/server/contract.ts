// The render contract between the page server (page-server/render-page.mjs) and this build:
// what a render is asked with, and what it answers.
import type { PageHead, RemoteName, ServerFailure, ServerState } from '@marketplace/shared';

/** How long a render waits for each part before it leaves that part to the browser. */
export interface RenderBudgets {
  /** A remote's server build (manifest, files, entry). */
  remoteMs: number;
  /**
   * The page's data deadline: its loader's calls run at once, and what has not answered by then
   * is aborted and left to the browser (a skeleton in the HTML), so a slow API is asked each
   * call once by the server, whatever its speed.
   */
  dataMs: number;
  /** The one rendering pass. */
  renderMs: number;
}

// Loaders and remote modules run side by side: a page costs at most remoteMs (the slower of
// the two) plus its render, and a slow API at most dataMs.
export const DEFAULT_BUDGETS: RenderBudgets = { remoteMs: 1500, dataMs: 500, renderMs: 2000 };

/** One exposed module of the remote version whose browser manifest is at `manifestUrl`. */
export type LoadServerModule = (request: {
  remote: RemoteName;
  manifestUrl: string;
  /** The manifest, when the page's composition holds it already. */
  manifest: unknown;
  exposed: string;
}) => Promise<unknown>;

export interface RenderRequest {
  /** Path and query of the page asked for. */
  url: string;
  /** The request's Cookie header ('' when none). */
  cookie: string;
  /** The page's composition block, as its server composed it (shared/src/platform/composition.ts). */
  composition: unknown;
  load: LoadServerModule;
  /**
   * Where the server build of the version at `manifestUrl` runs from (its folder), once loaded:
   * an error whose stack or component stack runs through it is that remote's. A page server
   * without it (older) gets no failures attributed to remotes.
   */
  sourceOf?: (manifestUrl: string) => string | undefined;
  budgets?: Partial<RenderBudgets>;
  /** Where this server reaches the API, when not at the page's `apiOrigin` (an internal address). */
  apiOrigin?: string;
}

export interface RenderedPage {
  /** 200, or 404 for an address with no page or whose thing does not exist. */
  status: number;
  /** The inside of the page's root element. */
  html: string;
  /** styled-components' style elements for that HTML. */
  styles: string;
  state: ServerState;
  head: PageHead;
  /** Server-side trouble that left a part to the browser (a remote down, a render that threw). */
  problems: string[];
  /**
   * Data left to the browser: calls the API did not answer by the deadline, calls its
   * components made that the page's loader does not name. The API's or the table's, not the
   * remotes' (a release gate does not hold a remote to them).
   */
  notes: string[];
  /** Of those, the remotes that threw while rendering, each error once (also in `state`, for the page's beacon). */
  failures: ServerFailure[];
  /** Whether the HTML holds the page's content, not a frame that scripts fill. */
  hasContent: boolean;
  /** A logged-in visitor's page: theirs alone, for no shared cache. */
  personal: boolean;
}

export interface DocumentRequest extends RenderRequest {
  /** The app's page (its build's index.html, its composition filled). */
  template: string;
  /** The page's public origin (`https://example.com`), for its canonical address. */
  origin: string;
}
