import type { ExposedProps } from '@marketplace/shared';
import { ContactModal as Inner } from '../modals/ContactModal.js';

/** Remote `account/ContactModal`. */
export default function ContactModal(props: ExposedProps<'account', 'ContactModal'>) {
  return <Inner {...props} />;
}
