import { CartPage as Page } from '../cart/CartPage.js';

/** Remote `media/CartPage`. */
export default function CartPage() {
  return <Page />;
}
