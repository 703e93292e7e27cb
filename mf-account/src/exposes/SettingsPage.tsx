import type { ExposedComponent } from '@marketplace/shared';
import { SettingsPage as Inner } from '../profile/SettingsPage.js';

/** Remote `account/SettingsPage`. */
const SettingsPage: ExposedComponent<'account', 'SettingsPage'> = () => <Inner />;
export default SettingsPage;
