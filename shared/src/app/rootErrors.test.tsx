import { act, Component, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { receivePageErrors, resetPageErrors, type PageErrorReport } from '../platform/pageErrors.js';
import { rootErrorHandlers } from './rootErrors.js';

class Boundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? <p>fallback</p> : this.props.children;
  }
}

/** A component that throws on its first `times` renders. */
function thrower(times: number, error: Error) {
  let renders = 0;
  return function Flaky() {
    renders += 1;
    if (renders <= times) throw error;
    return <p>rendered</p>;
  };
}

let received: PageErrorReport[] = [];
beforeEach(() => {
  received = [];
  receivePageErrors((report) => received.push(report));
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  resetPageErrors();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Renders `tree` in a root with the one handler, as mountApp does. */
async function rendered(tree: ReactNode): Promise<HTMLElement> {
  const container = document.createElement('div');
  const root = createRoot(container, rootErrorHandlers);
  await act(async () => root.render(tree));
  return container;
}

describe("every React root's errors", () => {
  it('reports a render React recovered from by rendering again: its wrapper, with what the component threw as its cause', async () => {
    const thrown = new Error('flaky header');
    const Flaky = thrower(1, thrown);
    const page = await rendered(
      <Boundary>
        <Flaky />
      </Boundary>,
    );
    // The page is whole: nobody saw it fail.
    expect(page.textContent).toBe('rendered');
    expect(received).toHaveLength(1);
    const [report] = received;
    expect(report?.kind).toBe('recoverable');
    const error = report && 'error' in report ? report.error : undefined;
    expect(error).not.toBe(thrown);
    expect((error as Error).cause).toBe(thrown);
    expect(report && 'componentStack' in report ? report.componentStack : '').toMatch(/\bFlaky\b/);
  });

  it('reports an error a boundary caught, once, with that boundary', async () => {
    const thrown = new Error('broken header');
    const page = await rendered(
      <Boundary>
        {(() => {
          const Broken = thrower(Infinity, thrown);
          return <Broken />;
        })()}
      </Boundary>,
    );
    expect(page.textContent).toBe('fallback');
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ kind: 'caught', error: thrown });
    expect(received[0] && 'boundary' in received[0] && received[0].boundary).toBeInstanceOf(Boundary);
  });

  it('reports an error no boundary caught once, and to the window as React would (its "Uncaught", a page error)', async () => {
    const reportError = vi.fn();
    vi.stubGlobal('reportError', reportError);
    const thrown = new Error('shell broken');
    const Broken = thrower(Infinity, thrown);
    // Outside act(), which would take the error for the test instead of handing it to the root.
    const actEnvironment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    const wasAct = actEnvironment.IS_REACT_ACT_ENVIRONMENT;
    actEnvironment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      createRoot(document.createElement('div'), rootErrorHandlers).render(<Broken />);
      await vi.waitFor(() => expect(reportError).toHaveBeenCalledWith(thrown));
    } finally {
      actEnvironment.IS_REACT_ACT_ENVIRONMENT = wasAct;
    }
    expect(received).toEqual([expect.objectContaining({ kind: 'uncaught', error: thrown })]);
  });
});
