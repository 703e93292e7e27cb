import type { ExposedComponent } from '@marketplace/shared';
import { PurchasesPage as Inner } from '../purchases/PurchasesPage.js';

/** Remote `account/PurchasesPage`. */
const PurchasesPage: ExposedComponent<'account', 'PurchasesPage'> = () => <Inner />;
export default PurchasesPage;
