import { HeaderBar } from '../header/HeaderBar.js';

/** Remote `header/Header`: the header bar shown on every page. */
export default function Header() {
  return <HeaderBar />;
}
