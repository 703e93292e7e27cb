// The shell's side of the render contract (shared/src/platform/render.ts, which the page server
// checks itself against): its budgets' defaults and what one render of a page answers.
import type { PageHead, ServerFailure, ServerState } from '@marketplace/shared';
import type { RenderBudgets } from '@marketplace/shared/render-contract';

export type {
  DocumentRequest,
  HostRenderer,
  LoadServerModule,
  RenderBudgets,
  RenderedDocument,
  RenderRequest,
} from '@marketplace/shared/render-contract';

// Loaders and remote modules run side by side: a page costs at most remoteMs (the slower of
// the two) plus its render, and a slow API at most dataMs.
export const DEFAULT_BUDGETS: RenderBudgets = { remoteMs: 1500, dataMs: 500, renderMs: 2000 };

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
