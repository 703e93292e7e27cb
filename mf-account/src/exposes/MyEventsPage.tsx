import { MyEventsPage as Inner } from '../profile/AccountPages.js';

/** Remote `account/MyEventsPage`. */
export default function MyEventsPage() {
  return <Inner />;
}
