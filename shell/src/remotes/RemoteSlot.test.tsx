import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from '@marketplace/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Loader } from './registry.js';
import { RemoteSlot } from './RemoteSlot.js';

const Ok = () => <p>header content</p>;
const Boom = () => {
  throw new Error('broken remote');
};

function renderSlot(loader: Loader, timeoutMs = 1000) {
  return render(
    <MemoryRouter initialEntries={['/a']}>
      <Link to="/b">go to b</Link>
      <Routes>
        <Route
          path="*"
          element={
            <RemoteSlot
              remote="header"
              module="Header"
              label="The header"
              props={{}}
              loader={loader}
              timeoutMs={timeoutMs}
            />
          }
        />
      </Routes>
      <p>rest of the page</p>
    </MemoryRouter>,
  );
}

const module = (component: () => React.ReactNode) => ({ default: component }) as never;

/** A loader that answers each call with the next step: an Error to fail, a component to succeed. */
function sequence(...steps: (Error | (() => React.ReactNode))[]) {
  let calls = 0;
  const loader: Loader = async () => {
    const step = steps[Math.min(calls++, steps.length - 1)];
    if (!step || step instanceof Error) throw step ?? new Error('no step');
    return module(step);
  };
  return { loader, calls: () => calls };
}

afterEach(() => vi.useRealTimers());

describe('RemoteSlot', () => {
  it('shows a loading state, then the remote', async () => {
    let resolve!: (m: never) => void;
    renderSlot(() => new Promise((r) => (resolve = r)));
    expect(screen.getByRole('status')).toHaveTextContent('Loading The header');
    await act(async () => resolve(module(Ok)));
    expect(screen.getByText('header content')).toBeInTheDocument();
  });

  it.each([
    ['/', '61px'],
    ['/user/login', '42px'],
  ])(
    "while the header's code loads on %s, its place is the header's height (%s), so the page does not move",
    (path, height) => {
      render(
        <MemoryRouter initialEntries={[path]}>
          <RemoteSlot
            remote="header"
            module="Header"
            label="The header"
            placeholder="header"
            props={{}}
            loader={() => new Promise(() => undefined)}
          />
        </MemoryRouter>,
      );
      const status = screen.getByRole('status');
      expect(status).toHaveTextContent('Loading The header');
      expect(status.lastElementChild).toHaveStyle({ height });
    },
  );

  it('shows a fallback in its slot only when the remote fails to load, and Retry loads it again', async () => {
    const { loader, calls } = sequence(new Error('down'), Ok);
    renderSlot(loader);
    expect(await screen.findByRole('alert')).toHaveTextContent('The header is unavailable right now.');
    expect(screen.getByText('rest of the page')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('header content')).toBeInTheDocument();
    expect(calls()).toBe(2);
  });

  it('gives up waiting after the load timeout', async () => {
    vi.useFakeTimers();
    renderSlot(() => new Promise(() => {}), 8000);
    await act(async () => vi.advanceTimersByTime(7999));
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => vi.advanceTimersByTime(1));
    expect(screen.getByRole('alert')).toHaveTextContent('unavailable');
  });

  it('catches a remote that throws while rendering', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderSlot(async () => module(Boom));
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    expect(screen.getByText('rest of the page')).toBeInTheDocument();
  });

  it('after a module threw while rendering, Retry fetches the remote afresh instead of reusing it', async () => {
    const Throws = () => {
      throw new Error('broken build');
    };
    const options: ({ fresh?: boolean } | undefined)[] = [];
    let call = 0;
    const loader: Loader = async (_remote, _module, opts) => {
      options.push(opts);
      return module(call++ === 0 ? Throws : Ok);
    };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    renderSlot(loader);
    expect(await screen.findByRole('alert')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('header content')).toBeInTheDocument();
    expect(options.map((o) => o?.fresh)).toEqual([false, true]);
    vi.restoreAllMocks();
  });

  it('retries a failed load when the user navigates', async () => {
    const { loader } = sequence(new Error('down'), Ok);
    renderSlot(loader);
    await screen.findByRole('alert');
    await userEvent.click(screen.getByRole('link', { name: 'go to b' }));
    expect(await screen.findByText('header content')).toBeInTheDocument();
  });
});
