// Runs the event order page alone for its team's development (`pnpm --filter mf-event-order dev`).
import { BrowserRouter, mountApp, pageRoutes, Routes } from '@marketplace/shared';
import { EXPOSED } from './exposed.js';

void mountApp(() => (
  <BrowserRouter>
    <Routes>{pageRoutes('eventOrder', EXPOSED)}</Routes>
  </BrowserRouter>
));
