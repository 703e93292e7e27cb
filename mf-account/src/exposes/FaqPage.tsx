import type { ExposedComponent } from '@marketplace/shared';
import { FaqPage as Inner } from '../content/FaqPage.js';

/** Remote `account/FaqPage`. */
const FaqPage: ExposedComponent<'account', 'FaqPage'> = () => <Inner />;
export default FaqPage;
