import { BrowserRouter, mountApp } from '@marketplace/shared';
import { App } from './app/App.js';
// The single-bundle build swaps this module for ./remotes/single.ts (build-preset/single.mjs).
import { startFederation } from './remotes/federation.js';
import { startTelemetry } from './telemetry/telemetry.js';

void mountApp((config) => {
  // Already started by main.js when the page was composed by its server.
  startFederation(config, window.location.pathname);
  startTelemetry(config);
  return (
    <BrowserRouter>
      <App />
    </BrowserRouter>
  );
});
