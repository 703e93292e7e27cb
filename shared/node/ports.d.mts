/** Types of ports.mjs for TypeScript callers (tests that start servers). */
export function freePort(): Promise<number>;
export function portOpen(port: number): Promise<boolean>;
export function waitForPorts(ports: number[], alive: () => boolean): Promise<boolean>;
export function stopOnSignal(stop: () => Promise<void>): void;
