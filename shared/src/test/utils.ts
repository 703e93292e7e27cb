export { exposesFolder, renderWithQuery, renderWithSession, testSessionStore, type TestSession } from './render.js';
export { allowOrigin, crossOriginFiles, useMswServer, watchFetches } from './msw.js';
export {
  cartItem,
  cartSummary,
  contentItem,
  message,
  notification,
  orderDetails,
  ownedItem,
  purchase,
  purchaseLine,
  sale,
  salesMonth,
  userInfo,
  videoItem,
} from './factories.js';
export { confirmSubscription, publish } from './fakeLive.js';
export { watchPageLoads } from './pageLoads.js';
