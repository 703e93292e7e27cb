import type { ExposedComponents } from '@marketplace/shared';
import ContactModal from './exposes/ContactModal.js';
import DiscountCodesPage from './exposes/DiscountCodesPage.js';
import FaqPage from './exposes/FaqPage.js';
import ForgotPasswordPage from './exposes/ForgotPasswordPage.js';
import LegalPage from './exposes/LegalPage.js';
import LoginPage from './exposes/LoginPage.js';
import MediaPackagesPage from './exposes/MediaPackagesPage.js';
import MyEventsPage from './exposes/MyEventsPage.js';
import OrdersPage from './exposes/OrdersPage.js';
import ProfilePage from './exposes/ProfilePage.js';
import PurchasesPage from './exposes/PurchasesPage.js';
import ReceiptPage from './exposes/ReceiptPage.js';
import ResetPasswordPage from './exposes/ResetPasswordPage.js';
import RoleSelectionModal from './exposes/RoleSelectionModal.js';
import SalesPage from './exposes/SalesPage.js';
import SettingsPage from './exposes/SettingsPage.js';
import SignupPage from './exposes/SignupPage.js';

/**
 * Every module this remote exposes (its `exposes/` folder, which the build preset publishes as
 * `./Name`). Typed as the platform's contract for `account`: a module missing, extra or with other
 * props fails the type check; `exposed.test.ts` checks the folder holds these files and no other.
 */
export const EXPOSED = {
  ContactModal,
  DiscountCodesPage,
  FaqPage,
  ForgotPasswordPage,
  LegalPage,
  LoginPage,
  MediaPackagesPage,
  MyEventsPage,
  OrdersPage,
  ProfilePage,
  PurchasesPage,
  ReceiptPage,
  ResetPasswordPage,
  RoleSelectionModal,
  SalesPage,
  SettingsPage,
  SignupPage,
} satisfies ExposedComponents<'account'>;
