import type { ExposedComponent } from '@marketplace/shared';
import { DiscountCodesPage as Inner } from '../offers/DiscountCodesPage.js';

/** Remote `account/DiscountCodesPage`. */
const DiscountCodesPage: ExposedComponent<'account', 'DiscountCodesPage'> = () => <Inner />;
export default DiscountCodesPage;
