// The render contract between a page server (page-server/render-page.ts) and the shell's server
// build (shell/src/server.tsx, built into dist-server/render.cjs): what the build exports, what a
// document render is asked with and what it answers. Deployed apart, each side may meet an older
// other: what a side may lack is optional. Types only, and nothing imported but the remotes'
// names, so a Node tool can check itself against it.
import type { RemoteName } from './remotes.js';

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

export interface DocumentRequest extends RenderRequest {
  /** The app's page (its build's index.html, its composition filled). */
  template: string;
  /** The page's public origin (`https://example.com`), for its canonical address. */
  origin: string;
}

/** The whole page as rendered. */
export interface RenderedDocument {
  /** 200, or 404 for an address with no page or whose thing does not exist. */
  status: number;
  body: string;
  /** Server-side trouble that left a part to the browser (a remote down, a render that threw). */
  problems: string[];
  /** Data left to the browser (the API late, a call the page's loader does not name); absent from older shells. */
  notes?: string[];
  /** One visitor's page (logged in): kept by no shared cache. */
  personal: boolean;
}

/** What the shell's server build exports to its page server. */
export interface HostRenderer {
  /** The build's copy of every shared singleton, which the remotes' server builds run on. */
  singletons: Record<string, { version: string; lib: () => unknown }>;
  renderDocument(request: DocumentRequest): Promise<RenderedDocument>;
}
