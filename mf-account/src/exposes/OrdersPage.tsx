import { OrdersPage as Inner } from '../profile/AccountPages.js';

/** Remote `account/OrdersPage`. */
export default function OrdersPage() {
  return <Inner />;
}
