import { LoginPage as Inner } from '../auth/LoginPage.js';

/** Remote `account/LoginPage`. */
export default function LoginPage() {
  return <Inner />;
}
