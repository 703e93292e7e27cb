// Runs the header alone for its team's development (`pnpm --filter mf-header dev`), over its own
// pages (the notifications page) at their platform paths.
import { BrowserRouter, mountApp, pageRoutes, Routes } from '@marketplace/shared';
import { EXPOSED } from './exposed.js';

const { Header } = EXPOSED;

void mountApp(() => (
  <BrowserRouter>
    <Header />
    <Routes>{pageRoutes('header', EXPOSED)}</Routes>
  </BrowserRouter>
));
