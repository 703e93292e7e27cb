import { OrderPage } from '../order/OrderPage.js';

/** Remote `eventOrder/EventOrderPage`: /eventorder/:orderId?sharingId=… */
export default function EventOrderPage() {
  return <OrderPage />;
}
