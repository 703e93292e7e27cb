import { SettingsPage as Inner } from '../profile/SettingsPage.js';

/** Remote `account/SettingsPage`. */
export default function SettingsPage() {
  return <Inner />;
}
