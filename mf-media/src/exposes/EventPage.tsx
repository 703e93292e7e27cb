import type { ExposedComponent } from '@marketplace/shared';
import { EventPage as Page } from '../browse/EventPage.js';

/** Remote `media/EventPage`. */
const EventPage: ExposedComponent<'media', 'EventPage'> = () => <Page />;
export default EventPage;
