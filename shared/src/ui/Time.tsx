import { useEffect, useState, useSyncExternalStore } from 'react';
import styled from 'styled-components';
import { theme } from './theme.js';
import type * as TimeFormatModule from './timeFormat.js';

type TimeFormat = typeof TimeFormatModule;

// Luxon is loaded the first time a time is shown (an opened notification list, a chat window),
// not with every page: it is about 20 KB gzipped, and most pages show no time at all.
let format: TimeFormat | null = null;
let loading: Promise<TimeFormat> | null = null;
const loadFormat = () => (loading ??= import('./timeFormat.js').then((m) => (format = m)));

// One clock for every time on the page, ticking while any is shown, so "just now" becomes
// "1 minute ago" without a reload.
const TICK_MS = 30_000;
const listeners = new Set<() => void>();
let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
function subscribe(listener: () => void) {
  if (listeners.size === 0) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      listeners.forEach((l) => l());
    }, TICK_MS);
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) clearInterval(timer);
  };
}

const Stamp = styled.time`
  color: ${theme.colors.muted};
  font-size: ${theme.text.small};
  white-space: nowrap;
`;

/**
 * When something happened: "5 minutes ago" for recent times, MM/DD/YYYY h:mm AM/PM for older
 * ones, and always the absolute time in the title (SPEC.md section 3 format). `absolute` shows
 * that format whatever the age: a record's date (a receipt, a sale) is read, not glanced at.
 */
export function Time({ iso, absolute = false }: { iso: string; absolute?: boolean }) {
  const [loaded, setLoaded] = useState(format);
  // Re-rendered by the clock; the text is computed from the time of the render.
  useSyncExternalStore(
    subscribe,
    () => now,
    () => now,
  );
  useEffect(() => {
    if (!loaded) void loadFormat().then(setLoaded, () => undefined);
  }, [loaded]);
  return (
    <Stamp dateTime={iso} title={loaded?.absoluteTime(iso)}>
      {(absolute ? loaded?.absoluteTime(iso) : loaded?.whenText(iso, Date.now())) ?? ''}
    </Stamp>
  );
}
