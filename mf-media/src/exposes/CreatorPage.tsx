import type { ExposedComponent } from '@marketplace/shared';
import { CreatorPage as Page } from '../browse/CreatorPage.js';

/** Remote `media/CreatorPage`. */
const CreatorPage: ExposedComponent<'media', 'CreatorPage'> = () => <Page />;
export default CreatorPage;
