import type { ExposedComponent } from '@marketplace/shared';
import { ContactModal as Inner } from '../modals/ContactModal.js';

/** Remote `account/ContactModal`. */
const ContactModal: ExposedComponent<'account', 'ContactModal'> = (props) => <Inner {...props} />;
export default ContactModal;
