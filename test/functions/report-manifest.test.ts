import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assembleManifest, type SiteState } from '../../functions/report-fetcher/manifest.js';
import { SiteMessage } from '../../functions/report-fetcher/site-message.js';

const run = (sites: string[]) => ({
  schema: 'skywatch.report-run/v1' as const,
  gsm: 'G',
  date: '2026-06-01',
  snapshotDate: null,
  sites,
  objects: [{ key: 'reports/gsm-usage/r', bytes: 1, records: 1, sha256: 'r' }],
});
const archived = (site: string) => ({
  state: {
    status: 'archived' as const,
    objects: [{ key: `reports/dnsp-usage/${site}`, bytes: 1, records: 1, sha256: site, site }],
  },
  etag: `"${site}"`,
});

describe('Function: assembleManifest', () => {
  it('is complete only when every expected site is archived', () => {
    const states = new Map<string, { state: SiteState; etag: string }>([
      ['A', archived('A')],
      ['B', { state: { status: 'failed' as const, reason: 'x', attempts: 2 }, etag: '"b"' }],
    ]);
    const m = assembleManifest(run(['A', 'B', 'C']), states);
    expect(m.complete).toBe(false);
    expect(m.sites).toEqual({
      expected: 3,
      archived: 1,
      missing: ['B', 'C'],
      failed: [{ site: 'B', reason: 'x', attempts: 2 }],
    });
    expect(m.recordEtags).toEqual({ A: '"A"', B: '"b"' });
    expect(assembleManifest(run(['A']), states).complete).toBe(true);
  });

  it('gives the same manifest whatever order the site states come in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[A-Z0-9]{1,6}$/), { minLength: 1, maxLength: 20 }),
        fc.func(fc.boolean()),
        (sites, pick) => {
          const entries = sites.filter((s) => pick(s)).map((s) => [s, archived(s)] as const);
          const forward = assembleManifest(run([...sites].sort()), new Map(entries));
          const backward = assembleManifest(run([...sites].sort()), new Map(entries.reverse()));
          expect(JSON.stringify(backward)).toBe(JSON.stringify(forward));
          expect(forward.sites.archived + forward.sites.missing.length).toBe(sites.length);
        },
      ),
    );
  });
});

describe('Function: SiteMessage', () => {
  it('takes a fan-out message body', () => {
    const body = { gsm: 'AAAA-BBBB', site: 'CCCC-DDDD', day: '2026-06-01', siteCount: 3 };
    expect(SiteMessage.parse(body)).toEqual(body);
  });

  it.each([
    ['a site key that would leave its S3 prefix', { site: '../state/x' }, 'site'],
    ['a day that is not a date', { day: '2026-6-1' }, 'day'],
    ['a site count below one', { siteCount: 0 }, 'siteCount'],
  ])('refuses %s, naming the field', (_name, change, field) => {
    const body = { gsm: 'AAAA', site: 'CCCC', day: '2026-06-01', ...change };
    const parsed = SiteMessage.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual([field]);
  });
});
