import type { ExposedComponent } from '@marketplace/shared';
import { MyEventsPage as Inner } from '../events/MyEventsPage.js';

/** Remote `account/MyEventsPage`. */
const MyEventsPage: ExposedComponent<'account', 'MyEventsPage'> = () => <Inner />;
export default MyEventsPage;
