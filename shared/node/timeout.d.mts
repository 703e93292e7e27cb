/** Types of timeout.mjs: the platform's one time limit on a promise. */
export function withTimeout<T>(promise: Promise<T>, ms: number, timeoutError: () => Error): Promise<T>;
