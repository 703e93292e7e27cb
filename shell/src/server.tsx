// The shell's server build (build-preset: `dist-server/render.js`): renders a page of the
// platform for its page server (page-server/render-page.ts), header and route from the remotes'
// own server builds, with this build's one copy of every shared singleton, which it also hands
// the remotes. Nothing here outlives a request: store, query cache, styles and head are its own.
// The parts: server/contract.ts (what a render is asked and answers), pageData.ts (the loader's
// calls and the session), slots.ts (the remotes' modules), renderPass.ts, renderPage.tsx, document.ts.
export { singletons } from './server/singletons.js';
export type {
  DocumentRequest,
  LoadServerModule,
  RenderBudgets,
  RenderedPage,
  RenderRequest,
} from './server/contract.js';
export { renderPage } from './server/renderPage.js';
export { headTags, renderDocument, scriptsAfterContent } from './server/document.js';
