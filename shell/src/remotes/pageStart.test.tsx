import { act, Suspense } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAGE_STARTED_EVENT } from '@marketplace/shared/platform';
import { awaitSlots, resetPageStart, SETTLE_LIMIT_MS, SlotSettled, useRootCommitted } from './pageStart.js';

// The page is the app's once its root and each slot its server rendered are hydrated: the boot
// script then does again the presses it held (src/boot).

afterEach(() => {
  document.removeEventListener(PAGE_STARTED_EVENT, count);
  resetPageStart();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

let tells = 0;
const count = () => (tells += 1);
beforeEach(() => {
  tells = 0;
  document.addEventListener(PAGE_STARTED_EVENT, count);
});
const told = () => tells > 0;

describe('the page start', () => {
  it('is told once the root and the slots its server rendered are hydrated: a form sent then is the app’s, not the browser’s', async () => {
    const sent: string[] = [];
    function Slot() {
      return (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            sent.push('by the app');
          }}
        >
          <button>Log in</button>
        </form>
      );
    }
    function Root() {
      useRootCommitted();
      return (
        <main>
          <Suspense fallback="Loading…">
            <Slot />
            <SlotSettled id="account/LoginPage" />
          </Suspense>
        </main>
      );
    }
    const container = document.createElement('div');
    container.innerHTML = renderToString(<Root />);
    document.body.append(container);
    awaitSlots(['account/LoginPage']);
    // What the boot script does when told: send the form it held.
    const atStart = new Promise<string[]>((resolve) =>
      document.addEventListener(
        PAGE_STARTED_EVENT,
        () => {
          container.querySelector('form')?.requestSubmit();
          resolve([...sent]);
        },
        { once: true },
      ),
    );
    const root = hydrateRoot(container, <Root />);
    expect(await atStart).toEqual(['by the app']);
    expect(told()).toBe(true);
    act(() => root.unmount());
  });

  it('waits for every slot, and at most SETTLE_LIMIT_MS after the root for one that never settles', () => {
    vi.useFakeTimers();
    awaitSlots(['header/Header', 'media/EventsPage']);
    function Root({ settled }: { settled: string[] }) {
      useRootCommitted();
      return settled.map((id) => <SlotSettled key={id} id={id} />);
    }
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<Root settled={[]} />));
    act(() => root.render(<Root settled={['header/Header']} />));
    expect(told()).toBe(false);
    act(() => vi.advanceTimersByTime(SETTLE_LIMIT_MS - 1));
    expect(told()).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(told()).toBe(true);
    // Once: the slot settling later tells nothing more.
    act(() => root.render(<Root settled={['header/Header', 'media/EventsPage']} />));
    act(() => vi.advanceTimersByTime(0));
    expect(tells).toBe(1);
    act(() => root.unmount());
  });

  it('is told after the root’s commit, in a task of its own, on a page with no slot to wait for (rendered in the browser)', () => {
    vi.useFakeTimers();
    function Root() {
      useRootCommitted();
      return null;
    }
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<Root />));
    expect(told(), 'not inside the commit').toBe(false);
    act(() => vi.advanceTimersByTime(0));
    expect(told()).toBe(true);
    act(() => root.unmount());
  });
});
