import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every Markdown file a reader opens: the root's, docs/ and each package's README.
const root = resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', 'dist-single', 'test-results', 'playwright-report', 'data', 'store']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** Markdown without its code: a path in a code block or span is not a link. */
const prose = (text: string) => text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');

/** The relative links of a Markdown text: `[text](target)`, `![alt](target)` and `src="target"`. */
function relativeLinks(text: string): string[] {
  const body = prose(text);
  const targets = [...body.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...body.matchAll(/\bsrc="([^"]+)"/g)].map(
    (m) => m[1] ?? '',
  );
  return targets.filter((t) => t !== '' && !/^[a-z][a-z0-9+.-]*:/i.test(t));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const headings = [...prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((m) =>
    slug(m[1] ?? ''),
  );
  // A repeated heading gets -1, -2… as on the forge.
  const seen = new Map<string, number>();
  return new Set(
    headings.map((h) => {
      const n = seen.get(h) ?? 0;
      seen.set(h, n + 1);
      return n === 0 ? h : `${h}-${n}`;
    }),
  );
}

describe('links in the READMEs and docs', () => {
  const files = markdownFiles(root);

  it('finds the README, the docs and every package README', () => {
    const names = files.map((f) => relative(root, f));
    expect(names).toContain('README.md');
    expect(names).toContain('CONTRIBUTING.md');
    expect(names.filter((n) => n.startsWith('docs/')).length).toBeGreaterThan(3);
    for (const pkg of ['shell', 'shared', 'api', 'build-preset', 'page-server', 'releases', 'e2e'])
      expect(names).toContain(`${pkg}/README.md`);
  });

  it.each(files.map((f) => [relative(root, f), f]))(
    '%s: every relative link points at a file, and a #heading it names',
    (_name, file) => {
      const broken: string[] = [];
      for (const link of relativeLinks(readFileSync(file, 'utf8'))) {
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        if (!existsSync(target)) broken.push(`${link}: no such file`);
        else if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchors(target).has(anchor))
          broken.push(`${link}: no such heading`);
      }
      expect(broken).toEqual([]);
    },
  );
});

describe('the link checker', () => {
  it('reads links and images, skips URLs and code, and slugs headings as the forge does', () => {
    const text =
      '[a](docs/x.md#how-it-works) ![chart](../e2e/chart.svg) [web](https://example.com) `[no](y.md)`\n```\n[no](z.md)\n```\n<img src="pic.svg">';
    expect(relativeLinks(text)).toEqual(['docs/x.md#how-it-works', '../e2e/chart.svg', 'pic.svg']);
    expect(slug('Releasing a remote (the release store)')).toBe('releasing-a-remote-the-release-store');
    expect(slug('Production topology: docker-compose, and the same')).toBe(
      'production-topology-docker-compose-and-the-same',
    );
  });
});
