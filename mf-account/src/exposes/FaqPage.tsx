import { FaqPage as Inner } from '../content/FaqPage.js';

/** Remote `account/FaqPage`. */
export default function FaqPage() {
  return <Inner />;
}
