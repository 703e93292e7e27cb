import { federatedApp } from 'build-preset';

const pages = ['LoginPage', 'SignupPage', 'ProfilePage', 'OrdersPage', 'MyEventsPage', 'MediaPackagesPage', 'DiscountCodesPage', 'SettingsPage', 'FaqPage', 'LegalPage', 'RoleSelectionModal', 'ContactModal'];

export default federatedApp(import.meta.dirname, {
  exposes: Object.fromEntries(pages.map((name) => [`./${name}`, `./src/exposes/${name}.tsx`])),
});
