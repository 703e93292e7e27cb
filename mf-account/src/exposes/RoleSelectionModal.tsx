import type { ExposedComponent } from '@marketplace/shared';
import { RoleSelectionModal as Inner } from '../modals/RoleSelectionModal.js';

/** Remote `account/RoleSelectionModal`. */
const RoleSelectionModal: ExposedComponent<'account', 'RoleSelectionModal'> = () => <Inner />;
export default RoleSelectionModal;
