import type { ExposedComponent } from '@marketplace/shared';
import { EventsPage as Page } from '../browse/EventsPage.js';

/** Remote `media/EventsPage`. */
const EventsPage: ExposedComponent<'media', 'EventsPage'> = () => <Page />;
export default EventsPage;
