/** Types of smoke.mjs: the release gate's smoke load in headless Chromium. */
export function smokeLoad(candidate: { shellUrl: string; remote: string; version: string }): Promise<string[]>;
