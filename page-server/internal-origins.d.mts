/** Types of internal-origins.mjs for TypeScript callers (its test). */
export function parseInternalOrigins(spec: string | undefined): Map<string, string>;
export function internalUrl(url: string, origins: Map<string, string>): string;
export function reachInternally(spec: string | undefined): void;
