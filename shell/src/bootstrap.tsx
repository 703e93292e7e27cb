import { BrowserRouter, mountApp } from '@marketplace/shared';
import { App } from './app/App.js';
// The single-bundle build swaps this module for ./remotes/single.ts (build-preset/single.mjs).
import { preloadForLocation, registerPlatformRemotes } from './remotes/federation.js';

void mountApp((config) => {
  registerPlatformRemotes(config);
  preloadForLocation(window.location.pathname);
  return (
    <BrowserRouter>
      <App />
    </BrowserRouter>
  );
});
