/** Business constants and limits of SPEC.md section 9, in one place for every package. */
import { PLATFORM_COOKIES } from './platform/cookies.js';

/** Page size of notifications and message notifications. */
export const PAGE_SIZE = 10;
/** A badge shows '10+' above this count. */
export const BADGE_CAP = 9;
/** Dropdowns load the next page at this fraction of their scroll height. */
export const SCROLL_LOAD_THRESHOLD = 0.9;
export const SEARCH_DEBOUNCE_MS = 100;
/** Width at or below which the mobile layout applies. */
export const MOBILE_BREAKPOINT_PX = 768;
/** How long a session lasts from its log in (the API's session and its loggedIn=yes cookie). */
export const SESSION_DAYS = 30;
export const LOGGED_IN_COOKIE_DAYS_AT_LOGOUT = 7;
export const LOGGED_IN_COOKIE_DAYS_ON_AUTH_FAILURE = 30;
export const LOGIN_REDIRECT_COOKIE_DAYS = 1;
export const IMAGE_COMPRESSION_LIMIT_MB = 1;
export const VIDEO_HOVER_DELAY_MS = 1000;
export const PLAYER_MAX_BUFFER_SECONDS = 4;
export const PLAY_ICON_WIDTH_PX = 50;
export const LINK_PREFETCH_MARGIN_PX = 200;
export const CONTACT_MODAL_WIDTH_PX = 500;
/** TanStack Query gcTime/staleTime default of the spec ("data cache time"). */
export const DATA_CACHE_TIME_MS = 5 * 60 * 1000;

// Named in the platform's one cookie table.
export const COOKIE_LOGGED_IN = PLATFORM_COOKIES.loggedIn;
export const COOKIE_LOGIN_REDIRECT = PLATFORM_COOKIES.loginRedirect;
/** SPEC.md section 3: the date display format MM/DD/YYYY h:mm AM/PM, as a luxon format. */
export const DATE_FORMAT = 'MM/dd/yyyy h:mm a';
/** Issue 19: times within this many days show as "5 minutes ago"; older ones in DATE_FORMAT. */
export const RELATIVE_TIME_DAYS = 7;
