/** Types of smoke.mjs: the release gate's smoke load, in headless Chromium and on the server. */
export function smokeLoad(candidate: { shellUrl: string; remote: string; version: string }): Promise<string[]>;
export function smokeRender(
  candidate: { shellUrl: string; shellDist: string; remote: string; version: string },
  options?: { timeoutMs?: number },
): Promise<string[]>;
export function runSandboxed(
  args: string[],
  limits: { scratch: string; timeoutMs: number },
): Promise<{ error: (Error & { killed?: boolean }) | null; stdout: string; stderr: string }>;
