import type { ExposedComponent } from '@marketplace/shared';
import { OrdersPage as Inner } from '../profile/AccountPages.js';

/** Remote `account/OrdersPage`. */
const OrdersPage: ExposedComponent<'account', 'OrdersPage'> = () => <Inner />;
export default OrdersPage;
