// The watcher's policy as the command line gives it (`--watch` and its options).
import { DEFAULT_POLICY } from './canary.mjs';
import { optionIn } from './cli-args.mjs';

/** A number option within bounds, else the usage error. @param {string[]} rest @param {string} flag @param {number} fallback @param {number} min @param {number} max */
function numberOption(rest, flag, fallback, min, max) {
  const value = optionIn(rest, flag);
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!(n >= min && n <= max)) {
    console.error(`${flag} takes a number from ${min} to ${max}, not '${value}'`);
    process.exit(2);
  }
  return n;
}

/** `--at-deadline rollback|hold`, else `fallback`. @param {string[]} rest @param {'rollback' | 'hold'} fallback @returns {'rollback' | 'hold'} */
function atDeadlineOption(rest, fallback) {
  const value = optionIn(rest, '--at-deadline');
  if (value === undefined) return fallback;
  if (value !== 'rollback' && value !== 'hold') {
    console.error(`--at-deadline takes rollback or hold, not '${value}'`);
    process.exit(2);
  }
  return value;
}

export const POLICY_FLAGS = [
  '--steps',
  '--alpha',
  '--margin',
  '--relative-margin',
  '--interval',
  '--min-loads',
  '--hold',
  '--deadline',
  '--at-deadline',
  '--bake',
  '--lcp-margin',
  '--inp-margin',
];

/**
 * The watcher's policy: `base` (the defaults of canary.mjs, or the policy the canary was given
 * before), each changeable by its option among `rest`.
 * @param {string[]} rest @param {import('./canary.mjs').Policy} [base] @returns {import('./canary.mjs').Policy}
 */
export function policyOptions(rest, base = DEFAULT_POLICY) {
  const option = (/** @type {string} */ flag) => optionIn(rest, flag);
  const steps = (option('--steps') ?? base.steps.join(',')).split(',').filter(Boolean).map(Number);
  if (!steps.every((n) => Number.isInteger(n) && n > 0 && n < 100)) {
    console.error('--steps takes shares from 1 to 99, comma-separated (after the last one the canary is promoted)');
    process.exit(2);
  }
  const alpha = numberOption(rest, '--alpha', base.alpha, 0.0001, 0.5);
  return {
    ...base,
    alpha,
    promoteAlpha: option('--alpha') === undefined ? base.promoteAlpha : alpha,
    margin: numberOption(rest, '--margin', base.margin, 0.0001, 0.99),
    relativeMargin: numberOption(rest, '--relative-margin', base.relativeMargin ?? 0, 0, 100),
    intervalSeconds: numberOption(rest, '--interval', base.intervalSeconds, 1, 86_400),
    minLoads: numberOption(rest, '--min-loads', base.minLoads, 1, 1e9),
    holdIntervals: numberOption(rest, '--hold', base.holdIntervals, 1, 1000),
    deadlineIntervals: numberOption(rest, '--deadline', base.deadlineIntervals, 1, 100_000),
    atDeadline: atDeadlineOption(rest, base.atDeadline ?? 'hold'),
    bakeIntervals: numberOption(rest, '--bake', base.bakeIntervals ?? 0, 0, 100_000),
    lcpMargin: numberOption(rest, '--lcp-margin', base.lcpMargin, 0, 10),
    inpMargin: numberOption(rest, '--inp-margin', base.inpMargin, 0, 10),
    steps,
  };
}
