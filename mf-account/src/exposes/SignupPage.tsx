import type { ExposedComponent } from '@marketplace/shared';
import { SignupPage as Inner } from '../auth/SignupPage.js';

/** Remote `account/SignupPage`. */
const SignupPage: ExposedComponent<'account', 'SignupPage'> = () => <Inner />;
export default SignupPage;
