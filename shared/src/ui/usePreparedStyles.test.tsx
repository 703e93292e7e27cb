import { render } from '@testing-library/react';
import styled from 'styled-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePreparedStyles } from './usePreparedStyles.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

const pageStyles = () => [...document.querySelectorAll('style')].map((s) => s.textContent).join('\n');

const Prepared = styled.div`
  color: rgb(1, 2, 3);
`;
const PREPARED = <Prepared />;

const NotPrepared = styled.div`
  color: rgb(4, 5, 6);
`;
const NOT_PREPARED = <NotPrepared />;

function Caller({ element }: { element: React.ReactElement }) {
  usePreparedStyles(element);
  return <p>caller</p>;
}

describe('usePreparedStyles', () => {
  it('makes the styles once the browser is idle, once for all callers, without putting anything on the page', () => {
    const idle: (() => void)[] = [];
    vi.stubGlobal(
      'requestIdleCallback',
      vi.fn((run: () => void) => idle.push(run)),
    );
    render(
      <>
        <Caller element={PREPARED} />
        <Caller element={PREPARED} />
      </>,
    );
    expect(pageStyles()).not.toMatch(/rgb\(1, 2, 3\)/);
    expect(idle).toHaveLength(1);
    idle.forEach((run) => run());
    expect(pageStyles()).toMatch(/rgb\(1, 2, 3\)/);
    expect(document.body.textContent).toBe('callercaller');
  });

  it('makes nothing in advance where the browser has no idle callback', () => {
    vi.stubGlobal('requestIdleCallback', undefined);
    render(<Caller element={NOT_PREPARED} />);
    expect(pageStyles()).not.toMatch(/rgb\(4, 5, 6\)/);
  });
});
