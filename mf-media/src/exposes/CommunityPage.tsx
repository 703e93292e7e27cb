import { CommunityPage as Page } from '../browse/CommunityPage.js';

/** Remote `media/CommunityPage`. */
export default function CommunityPage() {
  return <Page />;
}
