import { ProfilePage as Inner } from '../profile/AccountPages.js';

/** Remote `account/ProfilePage`. */
export default function ProfilePage() {
  return <Inner />;
}
