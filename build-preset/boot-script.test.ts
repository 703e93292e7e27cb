import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { describe, expect, it } from 'vitest';
import { buildBootScript } from './boot-script.mjs';

// The shell's boot script as the preset writes it into every page of the shell: one minified
// script, built from the shell's src/boot and what it imports.
const shell = join(import.meta.dirname, '..', PLATFORM.shell.package);
const bootSources = join(shell, 'src', 'boot');

/** The text of every comment in the boot script's own sources. */
function sourceComments(): string[] {
  return readdirSync(bootSources)
    .filter((file) => file.endsWith('.ts') && !file.includes('.test.'))
    .flatMap((file) => [...readFileSync(join(bootSources, file), 'utf8').matchAll(/\/\/ (.+)$/gm)])
    .map((match) => (match[1] ?? '').trim())
    .filter((text) => text.length > 12);
}

describe("the shell's boot script, as built", () => {
  it('is one line of code without a comment, and cannot end the element it is written into', async () => {
    const { text } = await buildBootScript(shell);
    expect(text).not.toContain('\n');
    expect(text).not.toMatch(/<\/script/i);
    expect(text).not.toContain('/*');
    const comments = sourceComments();
    expect(comments.length).toBeGreaterThan(10);
    for (const comment of comments) expect(text, comment).not.toContain(comment);
  });

  it("imports the platform's route matching and version choice rather than carrying copies of them", async () => {
    const { files } = await buildBootScript(shell);
    const built = files.map((file) => file.replaceAll('\\', '/'));
    expect(built.some((file) => file.endsWith('shared/src/platform/routes.ts'))).toBe(true);
    expect(built.some((file) => file.endsWith('shared/node/choice.mjs'))).toBe(true);
    // Not the pages' loaders and components: only the route table's JSON.
    expect(built.some((file) => file.endsWith('shared/src/platform/pages.ts'))).toBe(false);
  });

  it('stays within its byte budget: every page carries it before its content (about 3.5 KB compressed)', async () => {
    const { text } = await buildBootScript(shell);
    expect(gzipSync(text).length).toBeLessThanOrEqual(3700);
  });
});
