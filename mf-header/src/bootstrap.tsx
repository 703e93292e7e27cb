// Runs the header alone for its team's development (`pnpm --filter mf-header dev`).
import { BrowserRouter, mountApp } from '@marketplace/shared';
import Header from './exposes/Header.js';

void mountApp(() => (
  <BrowserRouter>
    <Header />
  </BrowserRouter>
));
