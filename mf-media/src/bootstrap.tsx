// Runs the media pages alone for their team's development (`pnpm --filter mf-media dev`).
import { BrowserRouter, mountApp, pageRoutes, Routes } from '@marketplace/shared';
import { EXPOSED } from './exposed.js';

void mountApp(() => (
  <BrowserRouter>
    <Routes>{pageRoutes('media', EXPOSED)}</Routes>
  </BrowserRouter>
));
