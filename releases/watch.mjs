// The canary watcher: every interval, the real-user figures of a remote's canary and of its live
// version since the canary started are judged by decideCanary (canary.mjs), together with those of
// every earlier evaluation of that canary, and the decision is carried out: wait, hold, step the
// share up, promote, roll back, or leave the canary held at its share at the deadline
// (inconclusive).
//
// Everything the watcher knows is in the release store, never only in a process: the canary's
// policy (its `canary` line, or a `policy` line), every evaluation with its figures and evidence
// (`watch` lines), the share (discovery.json). One evaluation (`watchStep`) reads it all again,
// so whoever runs it (the service, watcher-service.mjs; `pnpm release --watch` when no service
// runs; a process started again after a crash) goes on at the same step, and two of them never
// append the same evaluation: the second finds, under the store's lock, that the first did.
//
// This file is the watcher's public surface; each part is a file of its own: the canary as the
// store tells it (canary-state.mjs), the step (watch-step.mjs), a policy given later
// (watch-policy.mjs), the service's heartbeat (heartbeat.mjs), `--watch` following (follow.mjs),
// a promoted version's bake (bake.mjs, bake-step.mjs), figures that cannot be read (unreadable.mjs)
// and the team's webhook (webhook.mjs).
export { canaryStart, canaryState, looksOf, unfinished } from './canary-state.mjs';
export { describe, watchStep } from './watch-step.mjs';
export { watchWith } from './watch-policy.mjs';
export { clearHeartbeat, serviceRuns, writeHeartbeat } from './heartbeat.mjs';
export { followCanary } from './follow.mjs';
export { bakeState } from './bake.mjs';
export { BLIND_STREAK } from './unreadable.mjs';
export { createPager, readWebhooks, setWebhook } from './webhook.mjs';

/**
 * @typedef {import('./history.mjs').HistoryEntry} HistoryEntry
 * @typedef {import('./canary-policy.mjs').Policy} Policy
 * @typedef {import('./canary.mjs').Decision} Decision
 * @typedef {import('./tell.mjs').Announce} Announce
 * @typedef {import('./webhook.mjs').Pager} Pager
 * @typedef {import('./webhook.mjs').WebhookEvent} WebhookEvent
 * @typedef {import('./canary-state.mjs').CanaryState} CanaryState
 * @typedef {import('./canary-state.mjs').Unfinished} Unfinished
 * @typedef {import('./watch-step.mjs').StepResult} StepResult
 * @typedef {import('./heartbeat.mjs').Heartbeat} Heartbeat
 */
