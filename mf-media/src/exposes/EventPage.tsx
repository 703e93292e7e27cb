import { EventPage as Page } from '../browse/EventPage.js';

/** Remote `media/EventPage`. */
export default function EventPage() {
  return <Page />;
}
