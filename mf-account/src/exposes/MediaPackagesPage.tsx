import { MediaPackagesPage as Inner } from '../profile/AccountPages.js';

/** Remote `account/MediaPackagesPage`. */
export default function MediaPackagesPage() {
  return <Inner />;
}
