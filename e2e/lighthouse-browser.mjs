// How the accessibility suite (tests/lighthouse.spec.ts) drives Lighthouse: Debian's Chromium
// with its debugging port on loopback, in a throw-away profile that keeps a login between audits.
// (The bench's mobile runs launch a new browser per audit, as the CLI does: bench/lighthouse.mjs.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';

/**
 * @param {number} port the debugging port Lighthouse is given
 * @returns {Promise<{ context: import('@playwright/test').BrowserContext, close: () => Promise<void> }>}
 */
export async function launchForLighthouse(port) {
  const profile = mkdtempSync(join(tmpdir(), 'lighthouse-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
