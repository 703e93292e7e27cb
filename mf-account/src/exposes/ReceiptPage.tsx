import type { ExposedComponent } from '@marketplace/shared';
import { ReceiptPage as Inner } from '../purchases/ReceiptPage.js';

/** Remote `account/ReceiptPage`. */
const ReceiptPage: ExposedComponent<'account', 'ReceiptPage'> = () => <Inner />;
export default ReceiptPage;
