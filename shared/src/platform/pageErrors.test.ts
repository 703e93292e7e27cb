import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  listenForPageErrors,
  PAGE_ERRORS_WAITING_MAX,
  receivePageErrors,
  reportPageError,
  resetPageErrors,
  type PageErrorReport,
} from './pageErrors.js';

afterEach(() => resetPageErrors());

describe("the page's error queue", () => {
  it('keeps what is reported before anyone receives it, hands it over in order, then passes each one on', () => {
    const early = new Error('before telemetry');
    reportPageError({ kind: 'error', error: early });
    reportPageError({ kind: 'server', remote: 'header', message: 'Error: on the server' });
    const received: PageErrorReport[] = [];
    receivePageErrors((report) => received.push(report));
    expect(received).toEqual([
      { kind: 'error', error: early },
      { kind: 'server', remote: 'header', message: 'Error: on the server' },
    ]);
    const late = new Error('after');
    reportPageError({ kind: 'rejection', error: late });
    expect(received.at(-1)).toEqual({ kind: 'rejection', error: late });
  });

  it('takes a thrown object once, however many ways it arrives (a root error React also reports to the window)', () => {
    const received: PageErrorReport[] = [];
    receivePageErrors((report) => received.push(report));
    const error = new Error('root gone');
    reportPageError({ kind: 'uncaught', error, componentStack: '\n    at App' });
    reportPageError({ kind: 'error', error, message: error.message });
    expect(received).toEqual([{ kind: 'uncaught', error, componentStack: '\n    at App' }]);
  });

  it(`keeps at most ${PAGE_ERRORS_WAITING_MAX} while no one receives them, and keeps them again once let go`, () => {
    for (let i = 0; i < PAGE_ERRORS_WAITING_MAX + 50; i++) reportPageError({ kind: 'error', error: new Error(`${i}`) });
    const received: PageErrorReport[] = [];
    const letGo = receivePageErrors((report) => received.push(report));
    expect(received).toHaveLength(PAGE_ERRORS_WAITING_MAX);
    letGo();
    reportPageError({ kind: 'error', error: new Error('waits') });
    expect(received).toHaveLength(PAGE_ERRORS_WAITING_MAX);
    const later: PageErrorReport[] = [];
    receivePageErrors((report) => later.push(report));
    expect(later).toHaveLength(1);
  });

  it("puts the window's uncaught errors and unhandled rejections in the queue, listening once", () => {
    const target = new EventTarget() as Window;
    const add = vi.spyOn(target, 'addEventListener');
    listenForPageErrors(target);
    listenForPageErrors(target);
    expect(add).toHaveBeenCalledTimes(2);
    const received: PageErrorReport[] = [];
    receivePageErrors((report) => received.push(report));
    const error = new TypeError('x is undefined');
    target.dispatchEvent(new ErrorEvent('error', { error, message: error.message, filename: 'http://h.test/a.js' }));
    // A muted script error: no error, no file.
    target.dispatchEvent(new ErrorEvent('error', { message: 'Script error.' }));
    const rejection = Object.assign(new Event('unhandledrejection'), { reason: 'no reason' });
    target.dispatchEvent(rejection);
    expect(received).toEqual([
      { kind: 'error', error, message: 'x is undefined', filename: 'http://h.test/a.js' },
      { kind: 'error', error: null, message: 'Script error.', filename: '' },
      { kind: 'rejection', error: 'no reason' },
    ]);
  });
});
