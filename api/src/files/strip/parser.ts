/**
 * A format's parser: `step` looks at what is pending (the bytes not yet decided on) and answers
 * what to do with its head, or null when it needs more bytes.
 */
export interface Parser {
  step(pending: Buffer): Step | null;
  /** The most bytes `step` may ask to be held before deciding. */
  maxPending: number;
}

/**
 * What to do with the head of what is pending. A step with `then` has `then` taken as the next
 * step once it is done, before `step` is asked again (the data after a header already given, say).
 */
export type Step =
  | { emit: Uint8Array; consume: number; then?: Step } // give `emit` in place of the first `consume` pending bytes
  | { stream: 'copy' | 'skip' | 'zero'; count: number; then?: Step } // the next `count` bytes: as they are, dropped, or zeroed
  | { rest: 'pass' | 'drop' } // everything from here on: as it is, or nothing
  // The next `count` bytes collected whole (the parser bounds `count`), then given as `by` makes
  // them (no longer than they were), or, when `by` answers null, nothing from there on.
  | { hold: number; by: (whole: Buffer) => Uint8Array | null };
