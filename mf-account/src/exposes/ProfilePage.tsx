import type { ExposedComponent } from '@marketplace/shared';
import { ProfilePage as Inner } from '../profile/AccountPages.js';

/** Remote `account/ProfilePage`. */
const ProfilePage: ExposedComponent<'account', 'ProfilePage'> = () => <Inner />;
export default ProfilePage;
