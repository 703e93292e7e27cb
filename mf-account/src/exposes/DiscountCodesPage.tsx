import { DiscountCodesPage as Inner } from '../profile/AccountPages.js';

/** Remote `account/DiscountCodesPage`. */
export default function DiscountCodesPage() {
  return <Inner />;
}
