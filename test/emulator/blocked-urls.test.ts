import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  DAY_MS,
  day,
  type Emulator,
  expectedDays,
  expectProblem,
  fixture,
  getOk,
  ISO_UTC_RE,
  MIDNIGHT_RE,
  midnight,
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

function days(c: Counts): string[] {
  return c.DatedCounts.map((d) => d.Date.slice(0, 10));
}

function countOn(c: Counts, date: string): number {
  const hit = c.DatedCounts.find((d) => d.Date.startsWith(date));
  if (!hit) throw new Error(`no count for ${date} in ${JSON.stringify(c.DatedCounts)}`);
  return hit.Count;
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('Blocked-URL counts (4.9): window rules', () => {
  it('defaults to endDate = now and startDate = endDate − 7 days, newest day first', async () => {
    const c = await counts();
    expect(c.IncludeDeactivated).toBe(false);
    expect(c.IncludeHidden).toBe(false);
    expect(Date.parse(c.EndDate)).toBe(nowMs);
    expect(Date.parse(c.StartDate)).toBe(nowMs - 7 * DAY_MS);
    expect(days(c)).toEqual(expectedDays(nowMs - 7 * DAY_MS, nowMs));
    expect(c.StartDate).toMatch(ISO_UTC_RE);
    expect(c.EndDate).toMatch(ISO_UTC_RE);
    for (const d of c.DatedCounts) {
      expect(d.Date).toMatch(MIDNIGHT_RE);
      expect(Number.isInteger(d.Count) && d.Count >= 0).toBe(true);
    }
  });

  it('includes the start day when startDate is at 00:00 UTC, and starts next day one second later', async () => {
    const start0 = midnight(nowMs) - 5 * DAY_MS;
    const at = await counts({ startDate: iso(start0), endDate: iso(nowMs) });
    const later = await counts({ startDate: iso(start0 + 1000), endDate: iso(nowMs) });
    expect(days(at)).toEqual(expectedDays(start0, nowMs));
    expect(days(at).at(-1)).toBe(day(start0));
    expect(days(later)).toEqual(days(at).slice(0, -1));
  });

  it('reads a date-only startDate/endDate as 00:00 UTC and leaves out an endDate day at 00:00', async () => {
    const s = midnight(nowMs) - 10 * DAY_MS;
    const e = midnight(nowMs) - 2 * DAY_MS;
    const c = await counts({ startDate: day(s), endDate: day(e) });
    expect(days(c)).toEqual(expectedDays(s, e));
    expect(days(c)).not.toContain(day(e));
    expect(days(c)[0]).toBe(day(e - DAY_MS));
    expect(Date.parse(c.StartDate)).toBe(s);
    expect(Date.parse(c.EndDate)).toBe(e);
  });

  it('counts the last day only up to the time of day of endDate', async () => {
    const d = midnight(nowMs) - 3 * DAY_MS;
    const s = iso(d - 2 * DAY_MS);
    const times = [
      d + 1000,
      d + 6 * 3600_000,
      d + 12 * 3600_000,
      d + 18 * 3600_000,
      d + DAY_MS - 1000,
    ];
    const partial: number[] = [];
    for (const t of times)
      partial.push(countOn(await counts({ startDate: s, endDate: iso(t) }), day(d)));
    const full = countOn(await counts({ startDate: s, endDate: iso(d + 2 * DAY_MS) }), day(d));
    for (let i = 1; i < partial.length; i += 1)
      expect(partial[i]).toBeGreaterThanOrEqual(partial[i - 1] ?? 0);
    expect(partial.at(-1)).toBeLessThanOrEqual(full);
    expect(partial[0]).toBeLessThan(full);
  });

  it('gives a full day the same count whichever window contains it', async () => {
    const d = midnight(nowMs) - 20 * DAY_MS;
    const a = await counts({ startDate: day(d - 5 * DAY_MS), endDate: day(d + 3 * DAY_MS) });
    const b = await counts({ startDate: day(d), endDate: day(d + 20 * DAY_MS) });
    expect(countOn(a, day(d))).toBe(countOn(b, day(d)));
  });

  it('defaults startDate to endDate − 7 days when only endDate is given', async () => {
    const e = nowMs - 3 * DAY_MS + 5 * 3600_000;
    const c = await counts({ endDate: iso(e) });
    expect(Date.parse(c.StartDate)).toBe(e - 7 * DAY_MS);
    expect(Date.parse(c.EndDate)).toBe(e);
    expect(days(c)).toEqual(expectedDays(e - 7 * DAY_MS, e));
  });

  it('rejects a startDate more than 30 days before the default endDate with 400', async () => {
    const res = await call(em, path(), {
      token: tok,
      query: { startDate: iso(nowMs - 40 * DAY_MS) },
    });
    await expectProblem(res, 400, 'invalid_parameter');
  });

  it('reads an offset the same as the UTC instant', async () => {
    const s = midnight(nowMs) - 6 * DAY_MS;
    const utc = await counts({ startDate: iso(s), endDate: iso(s + 4 * DAY_MS + 3600_000) });
    const offset = await counts({
      startDate: iso(s + 2 * 3600_000).replace('Z', '+02:00'),
      endDate: iso(s + 4 * DAY_MS + 3 * 3600_000).replace('Z', '+02:00'),
    });
    expect(offset.DatedCounts).toEqual(utc.DatedCounts);
    expect(Date.parse(offset.StartDate)).toBe(s);
  });

  it('reads a datetime without an offset as UTC', async () => {
    const s = midnight(nowMs) - 6 * DAY_MS + 3600_000;
    const e = s + 3 * DAY_MS;
    const bare = await counts({
      startDate: iso(s).replace(/\.\d{3}Z$/, ''),
      endDate: iso(e).replace(/\.\d{3}Z$/, ''),
    });
    const zulu = await counts({ startDate: iso(s), endDate: iso(e) });
    expect(bare).toEqual(zulu);
  });

  it('accepts exactly 30 days and rejects 30 days and a second with 400', async () => {
    const e = nowMs - DAY_MS;
    const ok = await counts({ startDate: iso(e - 30 * DAY_MS), endDate: iso(e) });
    expect(days(ok)).toEqual(expectedDays(e - 30 * DAY_MS, e));
    const res = await call(em, path(), {
      token: tok,
      query: { startDate: iso(e - 30 * DAY_MS - 1000), endDate: iso(e) },
    });
    await expectProblem(res, 400, 'invalid_parameter');
  });

  it('rejects startDate after or equal to endDate with 400', async () => {
    for (const [s, e] of [
      [nowMs - DAY_MS, nowMs - 2 * DAY_MS],
      [nowMs - DAY_MS, nowMs - DAY_MS],
    ]) {
      const res = await call(em, path(), {
        token: tok,
        query: { startDate: iso(s ?? 0), endDate: iso(e ?? 0) },
      });
      await expectProblem(res, 400, 'invalid_parameter');
    }
  });

  it('serves 89 days back and rejects a startDate older than 90 days with 400', async () => {
    const ok = await counts({
      startDate: iso(nowMs - 89 * DAY_MS),
      endDate: iso(nowMs - 80 * DAY_MS),
    });
    expect(days(ok)).toEqual(expectedDays(nowMs - 89 * DAY_MS, nowMs - 80 * DAY_MS));
    const res = await call(em, path(), {
      token: tok,
      query: { startDate: iso(nowMs - 91 * DAY_MS), endDate: iso(nowMs - 85 * DAY_MS) },
    });
    await expectProblem(res, 400, 'invalid_parameter', 'startDate');
  });

  it('treats an endDate later than now as now', async () => {
    const c = await counts({
      startDate: iso(nowMs - 3 * DAY_MS),
      endDate: iso(nowMs + 2 * DAY_MS),
    });
    expect(Date.parse(c.EndDate)).toBe(nowMs);
    expect(days(c)).toEqual(expectedDays(nowMs - 3 * DAY_MS, nowMs));
  });

  it.each([
    ['startDate', 'last week'],
    ['endDate', '2026-06-31'],
    ['includeDeactivated', 'yes'],
    ['includeHidden', '1'],
  ])('rejects %s=%j with 400 naming it', async (name, value) => {
    const res = await call(em, path(), { token: tok, query: { [name]: value } });
    await expectProblem(res, 400, 'invalid_parameter', name);
  });
});
