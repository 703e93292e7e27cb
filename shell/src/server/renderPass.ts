import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { messageOf } from '@marketplace/shared/errors';

/** An error a pass met, with the component stack React gave with it. */
export type PassError = { error: unknown; componentStack?: string };

/** The HTML of one pass; a part still suspended when the budget ends is left to the browser. */
export function renderPass(
  tree: ReactNode,
  budgetMs: number,
  problems: string[],
  errors: PassError[],
): Promise<string> {
  return new Promise((resolve, reject) => {
    let html = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        html += chunk.toString();
        done();
      },
      final(done) {
        clearTimeout(timer);
        resolve(html);
        done();
      },
    });
    const stream = renderToPipeableStream(tree, {
      // The page is sent whole (onAllReady), so nothing is gained by React's outlining of a large
      // Suspense boundary (over 12.8 KB by default: a gallery with its srcsets) into a segment
      // completed by an inline script, which the page's CSP refuses: the boundary stays inline.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onAllReady: () => stream.pipe(sink),
      onShellError: reject,
      onError(error, info) {
        problems.push(messageOf(error));
        errors.push({ error, componentStack: info.componentStack });
      },
    });
    const timer = setTimeout(() => stream.abort(new Error(`render took over ${budgetMs} ms`)), budgetMs);
  });
}
