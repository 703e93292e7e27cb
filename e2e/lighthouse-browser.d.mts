import type { BrowserContext } from '@playwright/test';

export function launchForLighthouse(port: number): Promise<{ context: BrowserContext; close: () => Promise<void> }>;
