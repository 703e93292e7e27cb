/**
 * The one package every app shares as a Module Federation singleton: import from here only
 * (not from subpaths), so that there is exactly one store, one live channel and one config.
 */
export * from './contract/index.js';
export * from './constants.js';
export * from './config/runtime.js';
export * from './platform/index.js';
export { ApiError, apiCall, apiCallWith, endsSession, sendUpload, statusOf, type CallOptions } from './api/client.js';
export { downloadUrl } from './api/files.js';
export {
  callKey,
  callQuery,
  pageCall,
  pageQuery,
  prefetchPageCalls,
  sendPageCall,
  type PageCall,
} from './api/queries.js';
export { isLoggedInCookie, setLoggedInCookie, setLoginRedirect, takeLoginRedirect, parentDomain } from './cookies.js';
export { diagnostics } from './diagnostics.js';
export { live, LiveChannel, type LiveKind, type MqttLike, type Connect } from './live/index.js';
export {
  createSessionStore,
  sessionStore,
  SessionStoreContext,
  useSession,
  type SessionState,
  type SessionStore,
  type AddToCartResult,
} from './session/store.js';
export { OPEN_CHAT_EVENT, requestChat } from './session/chatRequests.js';
export { theme, type Theme } from './ui/theme.js';
export { Badge, formatBadgeCount } from './ui/Badge.js';
export { Avatar, DEFAULT_AVATAR } from './ui/Avatar.js';
export { Picture, type PictureProps, pictureUrl } from './ui/Picture.js';
export { Modal, type ModalProps } from './ui/Modal.js';
export { Dropdown, type DropdownProps } from './ui/Dropdown.js';
export {
  popupSurface,
  MenuItem,
  MenuList,
  Card,
  Skeleton,
  TitleSkeleton,
  PageSkeleton,
  VisuallyHidden,
  EmptyState,
  type SkeletonProps,
  type EmptyStateProps,
} from './ui/Surface.js';
export {
  Button,
  IconButton,
  PlainButton,
  type ButtonProps,
  type ButtonVariant,
  type IconButtonProps,
} from './ui/Button.js';
export {
  TextField,
  Checkbox,
  FileField,
  SelectField,
  type SelectFieldProps,
  type TextFieldProps,
  type CheckboxProps,
  type FileFieldProps,
} from './ui/Field.js';
export { Time } from './ui/Time.js';
export { PageLayout } from './ui/PageLayout.js';
export { QueryState, type QueryStateProps } from './ui/QueryState.js';
export { NotFoundState } from './ui/NotFoundState.js';
export { NotAllowedState } from './ui/NotAllowedState.js';
export {
  SITE_NAME,
  NOT_FOUND_HEAD,
  documentTitle,
  headStore,
  currentHead,
  routeHead,
  useCurrentHead,
  usePageHead,
  summary,
  ServerHeadContext,
  isNotFoundHead,
  type PageHead,
} from './app/head.js';
export {
  SERVER_STATE_ELEMENT_ID,
  serverStateInPage,
  dehydrateForPage,
  hydrateFromPage,
  keepNotFoundAnswers,
  isNotFoundQuery,
  stateScript,
  type ServerFailure,
  type ServerSession,
  type ServerState,
} from './app/serverState.js';
export { useScrollLock } from './ui/useScrollLock.js';
export { useDialogFocus } from './ui/useDialogFocus.js';
export { afterPaint } from './ui/afterPaint.js';
export { usePreparedStyles } from './ui/usePreparedStyles.js';
export { useClickOutside } from './ui/useClickOutside.js';
export { useKeptDraft } from './ui/useKeptDraft.js';
export { useFormErrors, type FieldErrors } from './ui/useFormErrors.js';
export * from './exposes.js';
export { mountApp, createQueryClient, GlobalStyle } from './app/mount.js';
export { rootErrorHandlers } from './app/rootErrors.js';
export { pageRoutes } from './app/pageRoutes.js';
export { safeHref } from './safeHref.js';
export { eventTimeFromInput, eventTimeInput, formatEventTime, formatMoney, parseMoney } from './format.js';
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from './router.js';
export { BellIcon, CartIcon, ChatIcon, PhotoIcon, SearchIcon } from './ui/icons.js';
export { useMediaQuery, useIsMobile, MOBILE_QUERY } from './ui/useMediaQuery.js';
