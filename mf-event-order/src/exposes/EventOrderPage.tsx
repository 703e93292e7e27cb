import type { ExposedComponent } from '@marketplace/shared';
import { OrderPage } from '../order/OrderPage.js';

/** Remote `eventOrder/EventOrderPage`: /eventorder/:orderId?sharingId=… */
const EventOrderPage: ExposedComponent<'eventOrder', 'EventOrderPage'> = () => <OrderPage />;
export default EventOrderPage;
