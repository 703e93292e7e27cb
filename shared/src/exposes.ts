/**
 * The public surface of every remote: the modules it exposes and their props. The shell loads
 * them by these names; a remote may add modules but never rename or retype these without a
 * coordinated change here.
 */
import type { RemoteName } from './platform/remotes.js';

export const LEGAL_DOCUMENTS = ['terms-of-service', 'privacy-policy', 'cookie-policy'] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

export interface ExposedModules {
  header: { Header: Record<string, never>; NotificationsPage: Record<string, never> };
  media: {
    EventsPage: Record<string, never>;
    EventPage: Record<string, never>;
    CommunityPage: Record<string, never>;
    CreatorPage: Record<string, never>;
    CartPage: Record<string, never>;
    SearchPage: Record<string, never>;
  };
  eventOrder: { EventOrderPage: Record<string, never> };
  account: {
    LoginPage: Record<string, never>;
    SignupPage: Record<string, never>;
    ForgotPasswordPage: Record<string, never>;
    ResetPasswordPage: Record<string, never>;
    ProfilePage: Record<string, never>;
    OrdersPage: Record<string, never>;
    MyEventsPage: Record<string, never>;
    MediaPackagesPage: Record<string, never>;
    DiscountCodesPage: Record<string, never>;
    PurchasesPage: Record<string, never>;
    SalesPage: Record<string, never>;
    ReceiptPage: Record<string, never>;
    SettingsPage: Record<string, never>;
    FaqPage: Record<string, never>;
    LegalPage: { document: LegalDocument };
    /** Mandatory: shown by the shell to a logged-in user with zero roles; no way to dismiss. */
    RoleSelectionModal: Record<string, never>;
    ContactModal: { onClose: () => void };
  };
}

export type ExposedName<R extends RemoteName> = keyof ExposedModules[R] & string;
export type ExposedProps<R extends RemoteName, M extends ExposedName<R>> = ExposedModules[R][M];

/** Every exposed module is a default-exported React component taking its props. */
export type ExposedModule<P> = { default: (props: P) => React.ReactNode };

/** The type of the component in a remote's `exposes/M.tsx`: each file declares itself with it. */
export type ExposedComponent<R extends RemoteName, M extends ExposedName<R>> = (
  props: ExposedProps<R, M>,
) => React.ReactNode;

/**
 * Everything a remote exposes, exactly: a remote's `src/exposed.ts` declares its `exposes/`
 * folder with this type, so a module missing, extra or typed otherwise fails its type check.
 */
export type ExposedComponents<R extends RemoteName> = { [M in ExposedName<R>]: ExposedComponent<R, M> };
