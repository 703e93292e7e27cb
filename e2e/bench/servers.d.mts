/** Types of servers.mjs: what the benchmarks (and the e2e suite's slow-API test) start on loopback. */
import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';

export const BENCH_RUM_TOKEN_KEY: string;
export function startApi(options: { port: number; dataDir: string; allowedOrigins: string[] }): ChildProcess;
export function waitFor(url: string, ms?: number): Promise<void>;
export interface DelayedCall {
  path: string;
  from: 'server' | 'browser';
  outcome: 'waiting' | 'answered' | 'abandoned';
}
export function delayingApi(
  apiOrigin: string,
  ms: number,
): Promise<{ state: { ms: number }; calls: DelayedCall[]; server: Server; origin: string }>;

/** Resolves once the demo's photos and covers have their pictures; fails after `ms`. */
export function waitForDemoMedia(api: string, ms?: number): Promise<void>;
