import { EventsPage as Page } from '../browse/EventsPage.js';

/** Remote `media/EventsPage`. */
export default function EventsPage() {
  return <Page />;
}
