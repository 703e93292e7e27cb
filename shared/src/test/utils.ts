export { exposesFolder, renderWithQuery } from './render.js';
export { useMswServer } from './msw.js';
export { cartItem, contentItem, message, notification, orderDetails, userInfo, videoItem } from './factories.js';
export { confirmSubscription, publish } from './fakeLive.js';
