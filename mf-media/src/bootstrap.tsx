// Runs the media pages alone for their team's development (`pnpm --filter mf-media dev`).
import { BrowserRouter, mountApp, Route, Routes } from '@marketplace/shared';
import CartPage from './exposes/CartPage.js';
import CommunityPage from './exposes/CommunityPage.js';
import CreatorPage from './exposes/CreatorPage.js';
import EventPage from './exposes/EventPage.js';
import EventsPage from './exposes/EventsPage.js';

void mountApp(() => (
  <BrowserRouter>
    <Routes>
      <Route path="/" element={<EventsPage />} />
      <Route path="/events" element={<EventsPage />} />
      <Route path="/event/:eventIdentifier" element={<EventPage />} />
      <Route path="/community" element={<CommunityPage />} />
      <Route path="/user/:profileName" element={<CreatorPage />} />
      <Route path="/cart" element={<CartPage />} />
    </Routes>
  </BrowserRouter>
));
