// The page's hand-over names for the browser's code, from the platform's one copy, which the boot
// script's text is made from too.
export { AFTER_PAINT_SCRIPT_TYPE, PAGE_STARTED_EVENT } from '../../node/handover.mjs';
