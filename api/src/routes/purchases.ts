import type { Router } from '../http/route.js';
import type { Services } from '../services.js';
import { registerCartPricingRoutes } from './purchases/cart.js';
import { registerCheckoutRoutes } from './purchases/checkout.js';
import { registerPurchaseHistoryRoutes } from './purchases/history.js';

/** Buying items: the cart's price and code, checkout and an event order's payment, receipts and sales. */
export function registerPurchaseRoutes(r: Router, services: Services): void {
  registerCartPricingRoutes(r, services);
  registerCheckoutRoutes(r, services);
  registerPurchaseHistoryRoutes(r, services);
}
