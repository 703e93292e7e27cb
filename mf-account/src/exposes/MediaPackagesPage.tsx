import type { ExposedComponent } from '@marketplace/shared';
import { MediaPackagesPage as Inner } from '../profile/AccountPages.js';

/** Remote `account/MediaPackagesPage`. */
const MediaPackagesPage: ExposedComponent<'account', 'MediaPackagesPage'> = () => <Inner />;
export default MediaPackagesPage;
