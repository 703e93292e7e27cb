import { CreatorPage as Page } from '../browse/CreatorPage.js';

/** Remote `media/CreatorPage`. */
export default function CreatorPage() {
  return <Page />;
}
