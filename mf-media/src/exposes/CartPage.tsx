import type { ExposedComponent } from '@marketplace/shared';
import { CartPage as Page } from '../cart/CartPage.js';

/** Remote `media/CartPage`. */
const CartPage: ExposedComponent<'media', 'CartPage'> = () => <Page />;
export default CartPage;
