import type { ExposedComponent } from '@marketplace/shared';
import { ResetPasswordPage as Inner } from '../auth/ResetPasswordPage.js';

/** Remote `account/ResetPasswordPage`. */
const ResetPasswordPage: ExposedComponent<'account', 'ResetPasswordPage'> = () => <Inner />;
export default ResetPasswordPage;
