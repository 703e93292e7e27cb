import type { ExposedComponent } from '@marketplace/shared';
import { CommunityPage as Page } from '../browse/CommunityPage.js';

/** Remote `media/CommunityPage`. */
const CommunityPage: ExposedComponent<'media', 'CommunityPage'> = () => <Page />;
export default CommunityPage;
