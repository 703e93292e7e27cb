import type { Parser, Step } from './parser.js';

/** The stripper of one file: bytes in, bytes out; never throws, never gives more than it was given. */
export interface Stripper {
  push(chunk: Uint8Array): Uint8Array[];
  end(): Uint8Array[];
}

/** Runs a parser over a stream: holds at most `maxPending` bytes; any surprise cuts the output there. */
export function guarded(parser: Parser): Stripper {
  let pending: Buffer = Buffer.alloc(0);
  let streaming: { mode: 'copy' | 'skip' | 'zero'; count: number } | null = null;
  let rest: 'pass' | 'drop' | null = null;
  let holding: { count: number; have: number; chunks: Buffer[]; by: (whole: Buffer) => Uint8Array | null } | null =
    null;
  /** The `then` of the last step taken: the next step, in place of asking the parser. */
  let then: Step | null = null;
  const run = (input: Uint8Array): Uint8Array[] => {
    const out: Uint8Array[] = [];
    const chunk = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    for (;;) {
      if (rest === 'pass') {
        if (pending.length > 0) out.push(pending);
        pending = Buffer.alloc(0);
        return out;
      }
      if (rest === 'drop') {
        pending = Buffer.alloc(0);
        return out;
      }
      if (streaming) {
        const n = Math.min(streaming.count, pending.length);
        if (streaming.mode === 'copy' && n > 0) out.push(pending.subarray(0, n));
        if (streaming.mode === 'zero' && n > 0) out.push(new Uint8Array(n));
        pending = pending.subarray(n);
        streaming.count -= n;
        if (streaming.count > 0) return out;
        streaming = null;
        continue;
      }
      if (holding) {
        const n = Math.min(holding.count - holding.have, pending.length);
        // Copied: the caller may reuse its buffer.
        if (n > 0) holding.chunks.push(Buffer.from(pending.subarray(0, n)));
        holding.have += n;
        pending = pending.subarray(n);
        if (holding.have < holding.count) return out;
        const whole = Buffer.concat(holding.chunks, holding.count);
        const made = holding.by(whole);
        holding = null;
        if (!made || made.length > whole.length) rest = 'drop';
        else if (made.length > 0) out.push(made);
        continue;
      }
      if (pending.length === 0) return out;
      const step = then ?? parser.step(pending);
      then = null;
      if (!step) {
        if (pending.length > parser.maxPending) rest = 'drop';
        else return out;
      } else if ('rest' in step) rest = step.rest;
      else if ('stream' in step) {
        streaming = { mode: step.stream, count: step.count };
        then = step.then ?? null;
      } else if ('hold' in step) {
        if (!(step.hold > 0)) rest = 'drop';
        else holding = { count: step.hold, have: 0, chunks: [], by: step.by };
      } else {
        if (step.consume <= 0 || step.consume > pending.length || step.emit.length > step.consume) rest = 'drop';
        else {
          if (step.emit.length > 0) out.push(step.emit);
          pending = pending.subarray(step.consume);
          then = step.then ?? null;
        }
      }
    }
  };
  return {
    push(chunk) {
      try {
        const out = run(chunk);
        // What is held back (a segment's head, at most maxPending bytes) is copied: the caller may reuse its buffer.
        pending = Buffer.from(pending);
        return out;
      } catch {
        rest = 'drop';
        return [];
      }
    },
    end() {
      // A file cut short: what was held back undecided (a partial segment or box) is not given.
      pending = Buffer.alloc(0);
      holding = null;
      return [];
    },
  };
}
