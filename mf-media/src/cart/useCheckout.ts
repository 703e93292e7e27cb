import { useRef, useState } from 'react';
import {
  apiCall,
  PAGES,
  safeHref,
  useNavigate,
  useSession,
  type CheckoutRefusal,
  type Purchase,
} from '@marketplace/shared';
import { refusalText } from './useCartSummary.js';

export interface CheckoutState {
  /** The call is on its way: the button is disabled. */
  busy: boolean;
  /** A purchase made while some items were refused: shown with them before going on to pay. */
  refused: { purchase: Purchase; items: CheckoutRefusal[] } | null;
  error: string | null;
}

/**
 * Checkout of the signed-in user's cart, then the payment page (the API's origin, so a full
 * page load). One call at a time: a double click sends one (the ref answers before React has
 * re-rendered the button disabled). Items checkout refused are listed first, and the user
 * chooses to go on. The server takes refused items out of the cart (all of them, when it answers
 * that nothing can be bought): the session's cart, which the header counts, is read again then.
 */
export function useCheckout() {
  const navigate = useNavigate();
  const reloadCart = useSession((s) => s.reloadCart);
  const sending = useRef(false);
  const [state, setState] = useState<CheckoutState>({ busy: false, refused: null, error: null });

  /** Where the purchase is paid; a purchase with nothing to pay any more (already paid) has its receipt. */
  const pay = (purchase: Purchase) => {
    const payUrl = safeHref(purchase.payUrl);
    if (payUrl) window.location.assign(payUrl);
    else navigate(PAGES.receipt.href({ purchaseNumber: purchase.purchaseNumber }));
  };

  const checkout = async () => {
    if (sending.current) return;
    sending.current = true;
    setState({ busy: true, refused: null, error: null });
    try {
      const { purchase, refused } = await apiCall('checkout');
      setState({ busy: false, refused: refused.length ? { purchase, items: refused } : null, error: null });
      if (refused.length === 0) pay(purchase);
      else void reloadCart();
    } catch (error) {
      setState({ busy: false, refused: null, error: refusalText(error, 'Checkout failed. Please try again.') });
      void reloadCart();
    } finally {
      sending.current = false;
    }
  };

  return { ...state, checkout, pay };
}
