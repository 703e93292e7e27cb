import { SignupPage as Inner } from '../auth/SignupPage.js';

/** Remote `account/SignupPage`. */
export default function SignupPage() {
  return <Inner />;
}
