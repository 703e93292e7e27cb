/** Types of handover.mjs: the names of a rendered page's hand-over from its boot script to the app. */
export const AFTER_PAINT_SCRIPT_TYPE: 'text/x-after-paint';
export const PAGE_STARTED_EVENT: 'platform-started';
export const START_AT_LATEST_MS: 2500;
