import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  DAY_MS,
  day,
  type Emulator,
  expectProblem,
  fixture,
  getOk,
  start,
  token,
} from './helpers.js';

interface Counts {
  IncludeDeactivated: boolean;
  IncludeHidden: boolean;
  StartDate: string;
  EndDate: string;
  DatedCounts: { Date: string; Count: number }[];
}

let em: Emulator;
let tok: string;
let fx: ReturnType<typeof fixture>;
let nowMs: number;

beforeAll(async () => {
  em = await start();
  fx = fixture(em);
  nowMs = em.now().getTime();
});
afterAll(() => em.close());
beforeEach(async () => {
  tok = await token(em, ['Console.GSM']);
});

const path = (siteId = fx.site.id, gsmKey = fx.gsm.key) =>
  `/api/console/gsm/${gsmKey}/sites/${siteId}/blockedurls/counts`;

async function counts(query: Record<string, string> = {}, siteId?: string): Promise<Counts> {
  return (await getOk(em, path(siteId), { token: tok, query })) as unknown as Counts;
}

function countOn(c: Counts, date: string): number {
  const hit = c.DatedCounts.find((d) => d.Date.startsWith(date));
  if (!hit) throw new Error(`no count for ${date} in ${JSON.stringify(c.DatedCounts)}`);
  return hit.Count;
}

describe('Blocked-URL counts (4.9): ids', () => {
  it('answers 400 naming siteId for a malformed siteId, 404 for an unknown one', async () => {
    await expectProblem(
      await call(em, path('not-a-uuid'), { token: tok }),
      400,
      'invalid_parameter',
      'siteId',
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expectProblem(await call(em, path(unknown), { token: tok }), 404, 'not_found');
  });

  it('answers 404 for a site of another GSM and 400/404 for bad GSM keys', async () => {
    await expectProblem(await call(em, path(fx.foreign.id), { token: tok }), 404, 'not_found');
    await expectProblem(
      await call(em, path(fx.site.id, 'bad'), { token: tok }),
      400,
      'invalid_parameter',
      'gsmKey',
    );
    await expectProblem(
      await call(em, path(fx.site.id, fx.site.key), { token: tok }),
      404,
      'not_found',
    );
  });

  it('matches the siteId case-insensitively', async () => {
    const upper = await counts({}, fx.site.id.toUpperCase());
    expect(upper).toEqual(await counts());
  });
});

describe('Blocked-URL counts (4.9): data', () => {
  it('shows a spike added through the admin API, exactly', async () => {
    const d = day(nowMs - 4 * DAY_MS);
    const q = { includeDeactivated: 'true', includeHidden: 'true' };
    const before = countOn(await counts(q), d);
    em.addBlockedUrls(fx.site.id, d, 5000);
    const after = await counts(q);
    expect(countOn(after, d)).toBe(before + 5000);
    expect(after.IncludeDeactivated).toBe(true);
    expect(after.IncludeHidden).toBe(true);
  });

  it('never counts less with includeDeactivated/includeHidden, and echoes the flags', async () => {
    const q = { startDate: day(nowMs - 12 * DAY_MS) };
    const none = await counts(q);
    const hidden = await counts({ ...q, includeHidden: 'true' });
    const deact = await counts({ ...q, includeDeactivated: 'TRUE' });
    const both = await counts({ ...q, includeHidden: 'True', includeDeactivated: 'true' });
    expect([hidden.IncludeHidden, hidden.IncludeDeactivated]).toEqual([true, false]);
    expect([deact.IncludeHidden, deact.IncludeDeactivated]).toEqual([false, true]);
    expect([both.IncludeHidden, both.IncludeDeactivated]).toEqual([true, true]);
    const explicitFalse = await counts({
      ...q,
      includeHidden: 'false',
      includeDeactivated: 'FALSE',
    });
    expect(explicitFalse).toEqual(none);
    none.DatedCounts.forEach((d, i) => {
      expect(hidden.DatedCounts[i]?.Count).toBeGreaterThanOrEqual(d.Count);
      expect(deact.DatedCounts[i]?.Count).toBeGreaterThanOrEqual(d.Count);
      expect(both.DatedCounts[i]?.Count).toBeGreaterThanOrEqual(hidden.DatedCounts[i]?.Count ?? 0);
      expect(both.DatedCounts[i]?.Count).toBeGreaterThanOrEqual(deact.DatedCounts[i]?.Count ?? 0);
    });
  });

  // Moves endpoints of the smallest site; the other tests use the largest.
  it('drops the counts of endpoints once they are hidden or deactivated, unless asked', async () => {
    const site = fx.small;
    const q = (flags: Record<string, string>) =>
      counts({ startDate: day(nowMs - 10 * DAY_MS), ...flags }, site.id);
    const total = (c: Counts) => c.DatedCounts.reduce((n, d) => n + d.Count, 0);
    const both = { includeDeactivated: 'true', includeHidden: 'true' };
    const baseline = await q(both);
    expect(total(baseline)).toBeGreaterThan(0);

    // Every endpoint of the site hidden or deactivated: nothing is left to count by default.
    const ids = em.machineIds(site.key, site.endpointCount);
    expect(ids).toHaveLength(site.endpointCount);
    const half = Math.ceil(ids.length / 2);
    for (const id of ids.slice(0, half)) em.endpointAction(id, 'hide');
    for (const id of ids.slice(half)) em.endpointAction(id, 'deactivate');

    const all = await q(both);
    expect(all.DatedCounts).toEqual(baseline.DatedCounts);
    const none = await q({});
    expect(none.DatedCounts.map((d) => d.Count)).toEqual(none.DatedCounts.map(() => 0));
    const withHidden = await q({ includeHidden: 'true' });
    const withDeactivated = await q({ includeDeactivated: 'true' });
    expect(total(withHidden) + total(withDeactivated)).toBe(total(all));
  });
});
