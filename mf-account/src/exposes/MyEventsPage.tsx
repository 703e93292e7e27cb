import type { ExposedComponent } from '@marketplace/shared';
import { MyEventsPage as Inner } from '../profile/AccountPages.js';

/** Remote `account/MyEventsPage`. */
const MyEventsPage: ExposedComponent<'account', 'MyEventsPage'> = () => <Inner />;
export default MyEventsPage;
