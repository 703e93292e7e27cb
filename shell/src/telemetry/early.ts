import { listenForPageErrors } from '@marketplace/shared/platform';

// Imported first by main.js (index.ts): from here on, an uncaught error or unhandled rejection
// waits in the page's error queue until telemetry starts, instead of being lost (issue 39,
// item 1). Before main.js nothing of the page's runs but its inline boot script.
listenForPageErrors();
