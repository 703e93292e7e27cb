// First: the page's errors are kept from here on, until telemetry takes them.
import './telemetry/early.js';
import { composedRuntimeConfig } from '@marketplace/shared/platform';
// The single-bundle build swaps this module for ./remotes/single.ts (build-preset/single.mjs).
import { startFederation } from './remotes/federation.js';

// The remotes' code starts downloading now, next to the shell's own chunks, when the server
// composed the page (runtime config and manifests in it): nothing here touches a shared module.
const composed = composedRuntimeConfig();
if (composed) startFederation(composed, window.location.pathname);

// Async boundary: shared singletons are negotiated before any app code imports them. In a task
// of its own: on a rendered page this runs after its first paint, where the main thread is the
// visitor's, and the remotes' start and the shell's chunks each in one task would hold it long.
setTimeout(() => void import('./bootstrap'), 0);
