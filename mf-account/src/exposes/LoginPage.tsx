import type { ExposedComponent } from '@marketplace/shared';
import { LoginPage as Inner } from '../auth/LoginPage.js';

/** Remote `account/LoginPage`. */
const LoginPage: ExposedComponent<'account', 'LoginPage'> = () => <Inner />;
export default LoginPage;
