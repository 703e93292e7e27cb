import { RoleSelectionModal as Inner } from '../modals/RoleSelectionModal.js';

/** Remote `account/RoleSelectionModal`. */
export default function RoleSelectionModal() {
  return <Inner />;
}
