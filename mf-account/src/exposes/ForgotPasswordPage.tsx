import type { ExposedComponent } from '@marketplace/shared';
import { ForgotPasswordPage as Inner } from '../auth/ForgotPasswordPage.js';

/** Remote `account/ForgotPasswordPage`. */
const ForgotPasswordPage: ExposedComponent<'account', 'ForgotPasswordPage'> = () => <Inner />;
export default ForgotPasswordPage;
