import type { ExposedComponent } from '@marketplace/shared';
import { SearchPage as Page } from '../browse/SearchPage.js';

/** Remote `media/SearchPage`. */
const SearchPage: ExposedComponent<'media', 'SearchPage'> = () => <Page />;
export default SearchPage;
