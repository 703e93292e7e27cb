/** The page's composition block, from outside (see page-composition.mjs). */
export function compositionBlocks(html: string): string[];
export function compositionTemplate(host: boolean): string;
export function inScript(text: string): string;
export function processIncludes(html: string, include: (path: string) => Promise<string | null>): Promise<string>;
export function platformIncludes(env: NodeJS.ProcessEnv): (path: string) => Promise<string | null>;
export const MISSING: string;
export const COMPOSE_TIMEOUT_MS: number;
export const INCLUDES: { config: string; discovery: string; manifest(remote: string): string };
export const BOOT_SCRIPT_MARKER: '<!-- boot script -->';
