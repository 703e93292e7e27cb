// Runs the account pages alone for their team's development (`pnpm --filter mf-account dev`).
import { BrowserRouter, mountApp, pageRoutes, Route, Routes, useSession } from '@marketplace/shared';
import { EXPOSED } from './exposed.js';

const { ContactModal, LoginPage, RoleSelectionModal } = EXPOSED;

function Standalone() {
  const needsRole = useSession((s) => s.isLoggedIn && s.user !== null && s.user.roles.length === 0);
  return (
    <>
      <Routes>
        {pageRoutes('account', EXPOSED)}
        {/* The shell opens the contact modal from its footer; alone, it has a path of its own. */}
        <Route path="/contact" element={<ContactModal onClose={() => history.back()} />} />
        <Route path="*" element={<LoginPage />} />
      </Routes>
      {needsRole && <RoleSelectionModal />}
    </>
  );
}

void mountApp(() => (
  <BrowserRouter>
    <Standalone />
  </BrowserRouter>
));
