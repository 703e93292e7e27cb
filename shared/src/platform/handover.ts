// The page's hand-over names for the browser's code (the boot script and the app), from the
// platform's one copy, which the Node tools read too.
export { AFTER_PAINT_SCRIPT_TYPE, PAGE_STARTED_EVENT, START_AT_LATEST_MS } from '../../node/handover.mjs';
