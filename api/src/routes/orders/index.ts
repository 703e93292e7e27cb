import type { Router } from '../../http/route.js';
import type { Services } from '../../services.js';
import { registerOrderChangeRoutes } from './changes.js';
import { registerOrderFileRoutes } from './files.js';
import { registerOrderReadRoutes } from './reads.js';
import { registerOrderSharingRoutes } from './sharing.js';

/** Event orders: reading them, their files, their changes of state, and their sharing link. */
export function registerOrderRoutes(r: Router, services: Services): void {
  registerOrderReadRoutes(r, services);
  registerOrderFileRoutes(r, services);
  registerOrderChangeRoutes(r, services);
  registerOrderSharingRoutes(r, services);
}
