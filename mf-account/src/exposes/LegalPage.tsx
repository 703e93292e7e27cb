import type { ExposedProps } from '@marketplace/shared';
import { LegalPage as Inner } from '../content/LegalPage.js';

/** Remote `account/LegalPage`. */
export default function LegalPage(props: ExposedProps<'account', 'LegalPage'>) {
  return <Inner {...props} />;
}
