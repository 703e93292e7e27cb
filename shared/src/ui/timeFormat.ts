import { DateTime } from 'luxon';
import { DATE_FORMAT, RELATIVE_TIME_DAYS } from '../constants.js';

/** SPEC.md section 3: MM/DD/YYYY h:mm AM/PM in the viewer's time zone; '' for a value that is no time. */
export function absoluteTime(iso: string): string {
  const time = DateTime.fromISO(iso);
  return time.isValid ? time.toFormat(DATE_FORMAT) : '';
}

/**
 * How a list shows when something happened (issue 19): "just now" within a minute, "5 minutes
 * ago" within RELATIVE_TIME_DAYS, the absolute time for older ones (and for a clock running
 * ahead of the server's by more than a minute).
 */
export function whenText(iso: string, nowMs: number = Date.now()): string {
  const time = DateTime.fromISO(iso);
  if (!time.isValid) return '';
  const now = DateTime.fromMillis(nowMs);
  const ageMs = now.toMillis() - time.toMillis();
  if (Math.abs(ageMs) < 60_000) return 'just now';
  if (ageMs < 0 || ageMs >= RELATIVE_TIME_DAYS * 86_400_000) return time.toFormat(DATE_FORMAT);
  return time.toRelative({ base: now }) ?? time.toFormat(DATE_FORMAT);
}
