import { describe, expect, it } from 'vitest';
import { exposeProblems, satisfies, sharedExportProblems, singletonProblems } from './gate.mjs';

describe('satisfies', () => {
  it('reads the ranges builds write as npm does', () => {
    expect(satisfies('19.3.1', '^19.3.1')).toBe(true);
    expect(satisfies('19.9.0', '^19.3.1')).toBe(true);
    expect(satisfies('20.0.0', '^19.3.1')).toBe(false);
    expect(satisfies('19.3.0', '^19.3.1')).toBe(false);
    expect(satisfies('0.1.4', '^0.1.0')).toBe(true);
    expect(satisfies('0.2.0', '^0.1.0')).toBe(false);
    expect(satisfies('5.1.9', '~5.1.0')).toBe(true);
    expect(satisfies('5.2.0', '~5.1.0')).toBe(false);
    expect(satisfies('6.6.0', '6.6.0')).toBe(true);
    expect(satisfies('6.6.1', '6.6.0')).toBe(false);
    expect(satisfies('1.0.0', undefined)).toBe(true);
  });
});

const shell = {
  shared: [
    { name: 'react', version: '19.3.1', singleton: true },
    { name: '@marketplace/shared', version: '0.1.0', singleton: true },
  ],
};

describe('the gate', () => {
  it('refuses a remote needing a singleton version, or a singleton, the live shell does not provide', () => {
    const fits = { shared: [{ name: 'react', requiredVersion: '^19.2.0', singleton: true }] };
    const newer = { shared: [{ name: 'react', requiredVersion: '^20.0.0', singleton: true }] };
    const unknown = { shared: [{ name: 'zod', requiredVersion: '^4.0.0', singleton: true }] };
    expect(singletonProblems(fits, shell)).toEqual([]);
    expect(singletonProblems(newer, shell)).toEqual(['needs react ^20.0.0, the live shell provides 19.3.1']);
    expect(singletonProblems(unknown, shell)).toEqual([
      'needs the singleton zod ^4.0.0, which the live shell does not provide',
    ]);
  });

  it('refuses a remote missing a page module the platform table gives it', () => {
    const all = {
      exposes: ['EventsPage', 'EventPage', 'CommunityPage', 'CartPage', 'CreatorPage', 'SearchPage'].map((name) => ({
        name,
      })),
    };
    expect(exposeProblems(all, 'media')).toEqual([]);
    expect(exposeProblems({ exposes: all.exposes.filter((e) => e.name !== 'CartPage') }, 'media')).toEqual([
      "does not expose CartPage, which the platform table's pages need from media",
    ]);
  });

  it("refuses a remote using a @marketplace/shared export the live shell's copy lacks, or when either side does not list them", () => {
    const shellOffers = { '@marketplace/shared': ['apiCall', 'live', 'PAGES'] };
    expect(sharedExportProblems({ '@marketplace/shared': ['apiCall', 'PAGES'] }, shellOffers)).toEqual([]);
    expect(sharedExportProblems({ '@marketplace/shared': ['apiCall', 'formatMoney'] }, shellOffers)).toEqual([
      "uses formatMoney from @marketplace/shared, which the live shell's copy lacks: deploy the shell with it first",
    ]);
    expect(sharedExportProblems(null, shellOffers)[0]).toMatch(
      /does not list the @marketplace\/shared exports it uses/,
    );
    expect(sharedExportProblems({ '@marketplace/shared': [] }, null)[0]).toMatch(/the live shell does not list/);
  });
});
