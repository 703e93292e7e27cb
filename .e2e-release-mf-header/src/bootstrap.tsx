// Runs the header alone for its team's development (`pnpm --filter mf-header dev`).
import { BrowserRouter, mountApp } from '@marketplace/shared';
import { EXPOSED } from './exposed.js';

const { Header } = EXPOSED;

void mountApp(() => (
  <BrowserRouter>
    <Header />
  </BrowserRouter>
));
