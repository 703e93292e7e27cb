import type { ExposedComponent } from '@marketplace/shared';
import { NotificationsPage as Inner } from '../notifications/NotificationsPage.js';

/** Remote `header/NotificationsPage`: every notification, with paging and "Mark all as read". */
const NotificationsPage: ExposedComponent<'header', 'NotificationsPage'> = () => <Inner />;
export default NotificationsPage;
