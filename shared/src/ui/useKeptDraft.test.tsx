import { act, renderHook } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KEPT_DRAFT_PREFIX, KEPT_DRAFT_WRITE_DELAY_MS, useKeptDraft } from './useKeptDraft.js';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  window.sessionStorage.clear();
});

// Each test uses keys of its own: a draft kept without sessionStorage stays in the module.
describe('useKeptDraft', () => {
  it('keeps the text through an unmount and a new mount, in sessionStorage under draft:', () => {
    const first = renderHook(() => useKeptDraft('remount'));
    act(() => first.result.current[1]('Hello Mi'));
    expect(first.result.current[0]).toBe('Hello Mi');
    first.unmount();

    const second = renderHook(() => useKeptDraft('remount'));
    expect(second.result.current[0]).toBe('Hello Mi');
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}remount`)).toBe('Hello Mi');
  });

  it('starts from the initial value when nothing is kept', () => {
    const { result } = renderHook(() => useKeptDraft('fresh', 'Dear Mia,'));
    expect(result.current[0]).toBe('Dear Mia,');
  });

  it('keeps each key apart', () => {
    const mia = renderHook(() => useKeptDraft('chat:mia'));
    const dave = renderHook(() => useKeptDraft('chat:dave'));
    act(() => mia.result.current[1]('for Mia'));
    expect(dave.result.current[0]).toBe('');
    act(() => dave.result.current[1]('for Dave'));
    expect(mia.result.current[0]).toBe('for Mia');
  });

  it('shows a change to every component using the same key', () => {
    const one = renderHook(() => useKeptDraft('twice'));
    const other = renderHook(() => useKeptDraft('twice'));
    act(() => one.result.current[1]('typed'));
    expect(other.result.current[0]).toBe('typed');
  });

  it('clear() forgets the text, so a new mount starts from the initial value', () => {
    const first = renderHook(() => useKeptDraft('cleared', 'start'));
    act(() => first.result.current[1]('sent text'));
    act(() => first.result.current[2]());
    expect(first.result.current[0]).toBe('start');
    first.unmount();
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}cleared`)).toBeNull();
    expect(renderHook(() => useKeptDraft('cleared', 'start')).result.current[0]).toBe('start');
  });

  it('clear() works after unmount (a send that ends after a remount)', () => {
    const first = renderHook(() => useKeptDraft('late'));
    act(() => first.result.current[1]('in flight'));
    const clear = first.result.current[2];
    first.unmount();
    clear();
    expect(renderHook(() => useKeptDraft('late')).result.current[0]).toBe('');
  });

  it('falls back to this page when sessionStorage throws, and never throws itself', () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const first = renderHook(() => useKeptDraft('no-storage'));
    act(() => first.result.current[1]('still here'));
    expect(first.result.current[0]).toBe('still here');
    first.unmount();
    const second = renderHook(() => useKeptDraft('no-storage'));
    expect(second.result.current[0]).toBe('still here');
    act(() => second.result.current[2]());
    expect(second.result.current[0]).toBe('');
  });

  it('works when reading window.sessionStorage itself throws', () => {
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const first = renderHook(() => useKeptDraft('blocked'));
    act(() => first.result.current[1]('typed'));
    expect(first.result.current[0]).toBe('typed');
    first.unmount();
    expect(renderHook(() => useKeptDraft('blocked')).result.current[0]).toBe('typed');
  });

  it('a full quota never brings back an older kept copy', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useKeptDraft('quota'));
    act(() => result.current[1]('older'));
    act(() => vi.advanceTimersByTime(KEPT_DRAFT_WRITE_DELAY_MS));
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}quota`)).toBe('older');
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    act(() => result.current[1]('newer'));
    act(() => vi.advanceTimersByTime(KEPT_DRAFT_WRITE_DELAY_MS));
    expect(result.current[0]).toBe('newer');
    setItem.mockRestore();
    act(() => result.current[1]('newest'));
    act(() => vi.advanceTimersByTime(KEPT_DRAFT_WRITE_DELAY_MS));
    expect(result.current[0]).toBe('newest');
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}quota`)).toBe('newest');
  });

  it('writes sessionStorage once typing pauses, not on every key, while showing every key at once', () => {
    vi.useFakeTimers();
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    const { result } = renderHook(() => useKeptDraft('typing'));
    for (const typed of ['s', 'su', 'sum']) {
      act(() => result.current[1](typed));
      expect(result.current[0]).toBe(typed);
      act(() => vi.advanceTimersByTime(KEPT_DRAFT_WRITE_DELAY_MS - 1));
    }
    expect(setItem).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(setItem).toHaveBeenCalledTimes(1);
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}typing`)).toBe('sum');
  });

  it('writes at once when the page is left or hidden', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useKeptDraft('leaving'));
    act(() => result.current[1]('before pagehide'));
    window.dispatchEvent(new Event('pagehide'));
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}leaving`)).toBe('before pagehide');

    act(() => result.current[1]('before hidden'));
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}leaving`)).toBe('before hidden');
  });

  it('writes at once when the last component using the key unmounts', () => {
    vi.useFakeTimers();
    const one = renderHook(() => useKeptDraft('unmount'));
    const other = renderHook(() => useKeptDraft('unmount'));
    act(() => one.result.current[1]('typed'));
    one.unmount();
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}unmount`)).toBeNull();
    other.unmount();
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}unmount`)).toBe('typed');
  });

  it('clear() removes the text from sessionStorage at once, and a pending write never brings it back', () => {
    vi.useFakeTimers();
    window.sessionStorage.setItem(`${KEPT_DRAFT_PREFIX}sent`, 'older');
    const { result } = renderHook(() => useKeptDraft('sent'));
    act(() => result.current[1]('the message'));
    act(() => result.current[2]());
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}sent`)).toBeNull();
    act(() => vi.advanceTimersByTime(KEPT_DRAFT_WRITE_DELAY_MS));
    expect(window.sessionStorage.getItem(`${KEPT_DRAFT_PREFIX}sent`)).toBeNull();
    expect(result.current[0]).toBe('');
  });

  it('renders the initial value on the server, and the kept text once hydrated, without a mismatch', async () => {
    window.sessionStorage.setItem(`${KEPT_DRAFT_PREFIX}hydrate`, 'kept');
    function Box() {
      const [value] = useKeptDraft('hydrate', 'initial');
      return <output>{value}</output>;
    }
    const html = renderToString(<Box />);
    expect(html).toContain('initial');

    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const onRecoverableError = vi.fn();
    const root = await act(async () => hydrateRoot(container, <Box />, { onRecoverableError }));
    expect(container.textContent).toBe('kept');
    expect(onRecoverableError).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });
});
