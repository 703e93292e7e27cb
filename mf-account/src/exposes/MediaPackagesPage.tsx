import type { ExposedComponent } from '@marketplace/shared';
import { MediaPackagesPage as Inner } from '../offers/MediaPackagesPage.js';

/** Remote `account/MediaPackagesPage`. */
const MediaPackagesPage: ExposedComponent<'account', 'MediaPackagesPage'> = () => <Inner />;
export default MediaPackagesPage;
