// Runs the account pages alone for their team's development (`pnpm --filter mf-account dev`).
import { BrowserRouter, mountApp, Route, Routes, useSession } from '@marketplace/shared';
import ContactModal from './exposes/ContactModal.js';
import DiscountCodesPage from './exposes/DiscountCodesPage.js';
import FaqPage from './exposes/FaqPage.js';
import LegalPage from './exposes/LegalPage.js';
import LoginPage from './exposes/LoginPage.js';
import MediaPackagesPage from './exposes/MediaPackagesPage.js';
import MyEventsPage from './exposes/MyEventsPage.js';
import OrdersPage from './exposes/OrdersPage.js';
import ProfilePage from './exposes/ProfilePage.js';
import RoleSelectionModal from './exposes/RoleSelectionModal.js';
import SettingsPage from './exposes/SettingsPage.js';
import SignupPage from './exposes/SignupPage.js';

function Standalone() {
  const needsRole = useSession((s) => s.isLoggedIn && s.user !== null && s.user.roles.length === 0);
  return (
    <>
      <Routes>
        <Route path="/user/login" element={<LoginPage />} />
        <Route path="/user/signup" element={<SignupPage />} />
        <Route path="/user/me" element={<ProfilePage />} />
        <Route path="/user/orders" element={<OrdersPage />} />
        <Route path="/user/events" element={<MyEventsPage />} />
        <Route path="/user/mediaPackages" element={<MediaPackagesPage />} />
        <Route path="/user/discountCodes" element={<DiscountCodesPage />} />
        <Route path="/settings/general" element={<SettingsPage />} />
        <Route path="/faq" element={<FaqPage />} />
        <Route path="/legal/terms-of-service" element={<LegalPage document="terms-of-service" />} />
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
