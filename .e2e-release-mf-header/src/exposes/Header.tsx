import type { ExposedComponent } from '@marketplace/shared';
import { HeaderBar } from '../header/HeaderBar.js';

/** Remote `header/Header`: the header bar shown on every page. */
const Header: ExposedComponent<'header', 'Header'> = () => <HeaderBar />;
export default Header;
