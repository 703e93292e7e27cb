import { vi } from 'vitest';
import type * as shared from '@marketplace/shared';

// The live channel is the network edge: component tests have no broker. A package whose test
// config adds this setup file (`@marketplace/shared/testing/fake-live`) gets the fake in every
// test file (fakeLive.ts), which lets a test publish and confirm subscriptions.
vi.mock('@marketplace/shared', async (original) => ({
  ...(await original<typeof shared>()),
  live: (await import('./fakeLive.js')).fakeLive,
}));
