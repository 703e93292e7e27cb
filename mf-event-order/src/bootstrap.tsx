// Runs the event order page alone for its team's development (`pnpm --filter mf-event-order dev`).
import { BrowserRouter, mountApp, Route, Routes } from '@marketplace/shared';
import EventOrderPage from './exposes/EventOrderPage.js';

void mountApp(() => (
  <BrowserRouter>
    <Routes>
      <Route path="/eventorder/:orderId" element={<EventOrderPage />} />
    </Routes>
  </BrowserRouter>
));
