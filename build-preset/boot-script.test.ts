import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PLATFORM } from '@marketplace/shared/node/platform';
import { describe, expect, it } from 'vitest';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import { BOOT_SCRIPT_MARKER } from 'page-server/page-composition';
import webpack from 'webpack';
import { BootScriptPlugin, buildBootScript } from './boot-script.mjs';

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

describe('the boot script in a build that goes on (a development server)', () => {
  it('reports a boot script that does not build as the build’s error, keeps the last good one, and takes the fix', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'boot-plugin-'));
    mkdirSync(join(dir, 'src', 'boot'), { recursive: true });
    writeFileSync(join(dir, 'src', 'index.ts'), 'export {};\n');
    const entry = join(dir, 'src', 'boot', 'index.ts');
    const template = join(dir, 'index.html');
    writeFileSync(template, `<!doctype html><title>t</title>${BOOT_SCRIPT_MARKER}`);
    const compiler = webpack({
      mode: 'development',
      context: dir,
      entry: './src/index.ts',
      output: { path: join(dir, 'dist') },
      devtool: false,
      plugins: [new HtmlWebpackPlugin({ template, minify: false, cache: false }), new BootScriptPlugin(dir)],
    });
    const run = () =>
      new Promise<{ errors: string[]; page: string }>((resolve, reject) =>
        compiler.run((error, stats) => {
          if (error || !stats) return reject(error);
          const errors = stats.compilation.errors.map((e) => e.message);
          resolve({ errors, page: readFileSync(join(dir, 'dist', 'index.html'), 'utf8') });
        }),
      );
    try {
      writeFileSync(entry, 'document.title = "first";\n');
      const first = await run();
      expect(first.errors).toEqual([]);
      expect(first.page).toMatch(/<script>.*"first".*<\/script>/);
      writeFileSync(entry, 'document.title = ;\n');
      const broken = await run();
      expect(broken.errors.join('\n')).toMatch(/boot script/);
      expect(broken.page).toMatch(/<script>.*"first".*<\/script>/);
      writeFileSync(entry, 'document.title = "fixed";\n');
      const fixed = await run();
      expect(fixed.errors).toEqual([]);
      expect(fixed.page).toMatch(/<script>.*"fixed".*<\/script>/);
    } finally {
      await new Promise((resolve) => compiler.close(resolve));
    }
  }, 60_000);
});
