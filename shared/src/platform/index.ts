export { REMOTES, REMOTE_NAMES, SHELL, SINGLE_BUNDLE_PORT, type RemoteName } from './remotes.js';
export {
  PAGES,
  PAGE_LIST,
  pagesOf,
  type Page,
  type PageRoute,
  type PageKey,
  type PathParams,
  type HeaderVariant,
  type FooterVariant,
  type SlotVisitor,
} from './pages.js';
export {
  COMPOSITION_ELEMENT_ID,
  composedRuntimeConfig,
  pageComposition,
  resetPageComposition,
  type Composition,
} from './composition.js';
export { pageAt } from './pageAt.js';
