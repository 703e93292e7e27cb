import { BrowserRouter } from 'react-router-dom';
import { mountApp } from '@marketplace/shared';
import { App } from './app/App.js';
import { registerPlatformRemotes } from './remotes/registry.js';

void mountApp((config) => {
  registerPlatformRemotes(config);
  return (
    <BrowserRouter>
      <App />
    </BrowserRouter>
  );
});
