// Runs the header alone for its team's development (`pnpm --filter mf-header dev`).
import { BrowserRouter } from 'react-router-dom';
import { mountApp } from '@marketplace/shared';
import Header from './exposes/Header.js';

void mountApp(() => (
  <BrowserRouter>
    <Header />
  </BrowserRouter>
));
