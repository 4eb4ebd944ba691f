import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  DAY_MS,
  day,
  type Emulator,
  expectedDays,
  fixture,
  midnight,
  start,
  token,
} from './helpers.js';

const RUNS = { numRuns: 40 };

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
  tok = await token(em);
});

describe('Properties: blocked-URL windows (4.9)', () => {
  const path = () => `/api/console/gsm/${fx.gsm.key}/sites/${fx.site.id}/blockedurls/counts`;
  const SEC = 1000;
  // Instants within the history, aligned to midnight half of the time so that rule is exercised.
  const instant = (minMs: number, maxMs: number) =>
    fc.oneof(
      fc.integer({ min: Math.ceil(minMs / SEC), max: Math.floor(maxMs / SEC) }).map((s) => s * SEC),
      fc
        .integer({ min: Math.ceil(minMs / DAY_MS), max: Math.floor(maxMs / DAY_MS) })
        .map((d) => d * DAY_MS),
    );

  it('answers 200 with exactly the days of the rule for any window of at most 30 days', async () => {
    const window = instant(nowMs - 89 * DAY_MS, nowMs - SEC).chain((startMs) =>
      fc
        .integer({ min: 1, max: 30 * 86_400 })
        .map((secs) => [startMs, Math.min(nowMs, startMs + secs * SEC)] as const)
        .filter(([s, e]) => e > s),
    );
    await fc.assert(
      fc.asyncProperty(window, async ([s, e]) => {
        const res = await call(em, path(), {
          token: tok,
          query: { startDate: new Date(s).toISOString(), endDate: new Date(e).toISOString() },
        });
        const text = await res.text();
        expect(res.status, text.slice(0, 200)).toBe(200);
        const got = (JSON.parse(text).DatedCounts as { Date: string }[]).map((d) => d.Date);
        expect(got.map((d) => d.slice(0, 10))).toEqual(expectedDays(s, e));
        for (const d of got) expect(d).toMatch(/T00:00:00(\.0+)?Z$/);
      }),
      RUNS,
    );
  });

  it('answers 400 for any window longer than 30 days', async () => {
    const window = instant(nowMs - 89 * DAY_MS, nowMs - 31 * DAY_MS).chain((startMs) =>
      fc
        .integer({ min: 30 * 86_400 + 1, max: 60 * 86_400 })
        .map((secs) => [startMs, startMs + secs * SEC] as const)
        .filter(([, e]) => e <= nowMs),
    );
    await fc.assert(
      fc.asyncProperty(window, async ([s, e]) => {
        const res = await call(em, path(), {
          token: tok,
          query: { startDate: new Date(s).toISOString(), endDate: new Date(e).toISOString() },
        });
        expect(res.status, await res.text()).toBe(400);
      }),
      RUNS,
    );
  });
});

describe('Properties: report effectiveDate (4.5)', () => {
  const path = () => `/api/status/reporting/gsm/${fx.gsm.key}`;
  const today = () => midnight(nowMs);

  it('serves any date from the day before yesterday back 390 days, at 00:00:00Z', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 390 }), fc.boolean(), async (back, asDateTime) => {
        const d = today() - back * DAY_MS;
        const effectiveDate = asDateTime ? new Date(d + 13 * 3600_000).toISOString() : day(d);
        const res = await call(em, path(), { token: tok, query: { effectiveDate } });
        const text = await res.text();
        expect(res.status, text.slice(0, 200)).toBe(200);
        expect(Date.parse(JSON.parse(text).ReportInfo.EffectiveDate)).toBe(d);
      }),
      RUNS,
    );
  });

  it('answers 400 for any date from yesterday on', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -1, max: 500 }), async (ahead) => {
        const effectiveDate = day(today() + ahead * DAY_MS);
        const res = await call(em, path(), { token: tok, query: { effectiveDate } });
        expect(res.status, await res.text()).toBe(400);
      }),
      RUNS,
    );
  });
});

describe('Properties: modifiedSince (4.3)', () => {
  /** The instant written with a ±hh:mm offset, as ISO 8601 allows. */
  function withOffset(ms: number, minutes: number): string {
    const local = new Date(ms + minutes * 60_000).toISOString().slice(0, 19);
    const sign = minutes < 0 ? '-' : '+';
    const abs = Math.abs(minutes);
    const hh = String(Math.floor(abs / 60)).padStart(2, '0');
    const mm = String(abs % 60).padStart(2, '0');
    return `${local}${sign}${hh}:${mm}`;
  }

  it('selects the same entries for an instant written with any offset as with Z', async () => {
    const path = () => `/api/status/gsm/${fx.gsm.key}`;
    const ids = async (modifiedSince: string) => {
      const res = await call(em, path(), { token: tok, query: { modifiedSince, batchSize: 1000 } });
      const text = await res.text();
      expect(res.status, `${modifiedSince}: ${text.slice(0, 200)}`).toBe(200);
      return (JSON.parse(text).QueryResults as { MachineID: string }[]).map((e) => e.MachineID);
    };
    await fc.assert(
      fc.asyncProperty(
        fc.integer({
          min: Math.floor((nowMs - 30 * DAY_MS) / 1000),
          max: Math.floor(nowMs / 1000),
        }),
        fc.integer({ min: -12 * 4, max: 14 * 4 }).map((q) => q * 15),
        async (secs, offsetMinutes) => {
          const ms = secs * 1000;
          expect(await ids(withOffset(ms, offsetMinutes))).toEqual(
            await ids(new Date(ms).toISOString()),
          );
        },
      ),
      { numRuns: 25 },
    );
  });
});
