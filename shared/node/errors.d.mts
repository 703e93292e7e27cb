/** Types of errors.mjs: the platform's one way to put a thrown value into words. */
export function messageOf(error: unknown, fallback?: string): string;
