import type { ExposedComponent } from '@marketplace/shared';
import { SalesPage as Inner } from '../purchases/SalesPage.js';

/** Remote `account/SalesPage`. */
const SalesPage: ExposedComponent<'account', 'SalesPage'> = () => <Inner />;
export default SalesPage;
