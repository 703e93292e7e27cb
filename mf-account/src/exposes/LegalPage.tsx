import type { ExposedComponent } from '@marketplace/shared';
import { LegalPage as Inner } from '../content/LegalPage.js';

/** Remote `account/LegalPage`. */
const LegalPage: ExposedComponent<'account', 'LegalPage'> = (props) => <Inner {...props} />;
export default LegalPage;
