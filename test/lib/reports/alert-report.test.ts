import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AlertTally, openTotal, p90 } from '../../../lib/reports/alert-report.js';
import { historyRow, type Transition } from '../../support/alert-rows.js';

const DAY = '2026-06-14';
const FIRST = '2026-05-16';

/** A tally of transitions, each added as its own object of the day its `at` falls on. */
function tally(transitions: Transition[]) {
  const t = new AlertTally(DAY, FIRST);
  for (const tr of transitions) t.add(tr.at.slice(0, 10), [historyRow(tr)]);
  return t.report();
}

describe('Class: AlertTally', () => {
  it('counts an alert open when its latest trigger or resolve is a trigger', () => {
    // Prepare
    const transitions: Transition[] = [
      { alert: 'offline/M1', seq: 1, event: 'trigger', at: '2026-06-10T08:00:00Z' },
      { alert: 'offline/M2', seq: 1, event: 'trigger', at: '2026-06-10T08:00:00Z' },
      { alert: 'offline/M2', seq: 2, event: 'resolve', at: '2026-06-11T08:00:00Z' },
    ];

    // Act
    const report = tally(transitions);

    // Assess
    expect(report.open).toEqual([
      { site: 'SITE-A', siteName: 'Name of SITE-A', kind: 'offline', alerts: 1 },
    ]);
    expect(openTotal(report)).toBe(1);
  });

  it('orders an alert by its transition number, not by the order its rows are read in', () => {
    const rows: Transition[] = [
      { alert: 'infected/M1', seq: 2, event: 'resolve', at: '2026-06-12T09:00:00Z' },
      { alert: 'infected/M1', seq: 1, event: 'trigger', at: '2026-06-12T08:00:00Z' },
    ];
    expect(tally(rows).open).toEqual([]);
    expect(tally([...rows].reverse()).open).toEqual([]);
  });

  it('counts a re-opened alert open, once, and each of its triggers of the day as opened', () => {
    const report = tally([
      { alert: 'offline/M1', seq: 1, event: 'trigger', at: `${DAY}T01:00:00Z` },
      { alert: 'offline/M1', seq: 2, event: 'resolve', at: `${DAY}T02:00:00Z`, seconds: 3600 },
      { alert: 'offline/M1', seq: 3, event: 'trigger', at: `${DAY}T05:00:00Z` },
    ]);
    expect(openTotal(report)).toBe(1);
    expect(report).toMatchObject({ opened: 2, resolved: 1, rows: 3 });
  });

  it('counts a trigger and its resolve on the report day as opened, resolved and not open', () => {
    const report = tally([
      { alert: 'protection-off/M1', seq: 1, event: 'trigger', at: `${DAY}T10:00:00Z` },
      {
        alert: 'protection-off/M1',
        seq: 2,
        event: 'resolve',
        at: `${DAY}T10:02:00Z`,
        seconds: 120,
      },
    ]);
    expect(report).toMatchObject({ opened: 1, resolved: 1, open: [] });
    expect(report.resolveTimes).toEqual([
      {
        site: 'SITE-A',
        siteName: 'Name of SITE-A',
        resolved: 1,
        meanMinutes: 2,
        p90Minutes: 2,
      },
    ]);
  });

  it('takes a resolve whose trigger is before the window as resolved, with its time, and not open', () => {
    const report = tally([
      { alert: 'offline/M9', seq: 4, event: 'resolve', at: `${DAY}T03:00:00Z`, seconds: 86_400 },
    ]);
    expect(report.open).toEqual([]);
    expect(report.opened).toBe(0);
    expect(report.resolved).toBe(1);
    expect(report.resolveTimes[0]).toMatchObject({ resolved: 1, meanMinutes: 1440 });
  });

  it('counts only the report day as opened and resolved; earlier days count for open and time', () => {
    const report = tally([
      { alert: 'offline/M1', seq: 1, event: 'trigger', at: '2026-06-13T23:59:59Z' },
      { alert: 'offline/M2', seq: 1, event: 'trigger', at: '2026-06-01T00:00:00Z' },
      { alert: 'offline/M2', seq: 2, event: 'resolve', at: '2026-06-02T00:00:00Z' },
    ]);
    expect(report).toMatchObject({ opened: 0, resolved: 0 });
    expect(openTotal(report)).toBe(1);
    expect(report.resolveTimes[0]?.resolved).toBe(1);
  });

  it('leaves grouped, muted and delivery rows out of every number', () => {
    const t = new AlertTally(DAY, FIRST);
    const at = `${DAY}T06:00:00Z`;
    t.add(DAY, [
      historyRow({ alert: 'infected/M1', seq: 1, event: 'grouped', at }),
      historyRow({ alert: 'offline/M2', seq: 1, event: 'muted', at }),
      { ...historyRow({ alert: 'offline/M3', seq: 1, event: 'delivered', at }), status: 200 },
      historyRow({ alert: 'infected/M4', seq: 2, event: 'grouped', at }),
    ]);
    expect(t.report()).toMatchObject({ open: [], opened: 0, resolved: 0, rows: 0 });
  });

  it('keeps the grouped alert of an outbreak, which is what receivers hold open', () => {
    const outbreak = 'infected/site/SITE-A/outbreak';
    const at = `${DAY}T06:00:00Z`;
    const t = new AlertTally(DAY, FIRST);
    t.add(DAY, [
      historyRow({ alert: outbreak, seq: 1, event: 'trigger', at }),
      ...['M1', 'M2', 'M3'].map((m) =>
        historyRow({ alert: `infected/${m}`, seq: 1, event: 'grouped', at }),
      ),
    ]);
    expect(t.report().open).toEqual([
      { site: 'SITE-A', siteName: 'Name of SITE-A', kind: 'infected', alerts: 1 },
    ]);
  });

  it('groups open alerts by site and kind, most first, and names a site by its newest row', () => {
    const report = tally([
      { alert: 'offline/M1', seq: 1, event: 'trigger', at: '2026-06-01T00:00:00Z', site: 'B' },
      { alert: 'offline/M2', seq: 1, event: 'trigger', at: '2026-06-02T00:00:00Z', site: 'B' },
      {
        alert: 'infected/M3',
        seq: 1,
        event: 'trigger',
        at: '2026-06-03T00:00:00Z',
        site: 'B',
        siteName: 'Bakery (renamed)',
      },
      { alert: 'offline/M4', seq: 1, event: 'trigger', at: '2026-06-02T00:00:00Z', site: 'A' },
      {
        alert: 'licence-expiring/site/C',
        seq: 1,
        event: 'trigger',
        at: '2026-06-02T00:00:00Z',
        site: 'C',
        siteName: null,
      },
    ]);
    expect(report.open.map((o) => [o.siteName, o.kind, o.alerts])).toEqual([
      ['Bakery (renamed)', 'offline', 2],
      ['Bakery (renamed)', 'infected', 1],
      ['C', 'licence-expiring', 1],
      ['Name of A', 'offline', 1],
    ]);
  });

  it('gives each site its mean and p90 to the tenth of a minute, slowest p90 first', () => {
    const resolves = (site: string, seconds: number[]) =>
      seconds.map(
        (s, i): Transition => ({
          alert: `offline/${site}${i}`,
          seq: 2,
          event: 'resolve',
          at: '2026-06-05T00:00:00Z',
          site,
          seconds: s,
        }),
      );
    const report = tally([
      ...resolves('FAST', [30, 90]),
      ...resolves('SLOW', [60, 120, 180, 240, 300, 360, 420, 480, 540, 600]),
    ]);
    expect(report.resolveTimes).toEqual([
      { site: 'SLOW', siteName: 'Name of SLOW', resolved: 10, meanMinutes: 5.5, p90Minutes: 9.1 },
      { site: 'FAST', siteName: 'Name of FAST', resolved: 2, meanMinutes: 1, p90Minutes: 1.4 },
    ]);
  });

  it('counts a resolve without its time as resolved, and leaves it out of mean and p90', () => {
    const report = tally([
      { alert: 'offline/M1', seq: 2, event: 'resolve', at: `${DAY}T01:00:00Z`, seconds: null },
    ]);
    expect(report.resolveTimes).toEqual([
      {
        site: 'SITE-A',
        siteName: 'Name of SITE-A',
        resolved: 1,
        meanMinutes: null,
        p90Minutes: null,
      },
    ]);
  });

  it('adds up the lines the caller could not read', () => {
    const t = new AlertTally(DAY, FIRST);
    t.add(DAY, [], 2);
    t.add(DAY, [historyRow({ alert: 'offline/M1', seq: 1, event: 'trigger', at: DAY })], 1);
    expect(t.report()).toMatchObject({ skipped: 3, rows: 1 });
  });
});

describe('Function: p90', () => {
  it('interpolates between the nearest ranks, as quantile_cont does', () => {
    expect(p90([])).toBeNull();
    expect(p90([42])).toBe(42);
    expect(p90([10, 20])).toBe(19);
    expect(p90([600, 60, 120, 180, 240, 300, 360, 420, 480, 540])).toBeCloseTo(546);
  });

  it('lies between the values of the ranks around 90 %, whatever their order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1 }), (xs) => {
        const sorted = [...xs].sort((a, b) => a - b);
        const rank = (sorted.length - 1) * 0.9;
        const value = p90(xs) ?? Number.NaN;
        expect(value).toBeGreaterThanOrEqual((sorted[Math.floor(rank)] ?? 0) - 1e-6);
        expect(value).toBeLessThanOrEqual((sorted[Math.ceil(rank)] ?? 0) + 1e-6);
      }),
    );
  });
});
