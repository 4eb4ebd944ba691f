import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { detectSpike, fullDays, median } from '../../functions/blocked-url-alerter/detect-spike.js';

const T = { minCount: 100, baselineMultiplier: 3, minBaselineDays: 3 };
const day = (n: number) => new Date(Date.UTC(2026, 5, 15 - n)).toISOString();

describe('Function: detectSpike', () => {
  it('flags a latest day above both the floor and the multiple of the median baseline', () => {
    const days = [900, 100, 120, 80, 110].map((count, n) => ({ date: day(n), count }));
    expect(detectSpike(days, T)).toMatchObject({
      spike: true,
      count: 900,
      baseline: 105,
      baselineDays: 4,
    });
  });

  it('leaves a flat site alone, and a quiet site whose ratio is high but count is low', () => {
    const flat = [130, 120, 125, 118, 122].map((count, n) => ({ date: day(n), count }));
    expect(detectSpike(flat, T)?.spike).toBe(false);
    const quiet = [60, 2, 3, 1].map((count, n) => ({ date: day(n), count }));
    expect(detectSpike(quiet, T)?.spike).toBe(false);
  });

  it('gives no verdict without enough baseline days', () => {
    expect(
      detectSpike(
        [
          { date: day(0), count: 5000 },
          { date: day(1), count: 1 },
        ],
        T,
      ),
    ).toBeUndefined();
  });

  it('never flags a day that does not exceed the floor (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(10_000), { minLength: 4, maxLength: 30 }), (counts) => {
        const verdict = detectSpike(
          counts.map((count, n) => ({ date: day(n), count })),
          T,
        );
        if (verdict?.spike) {
          expect(verdict.count).toBeGreaterThan(T.minCount);
          expect(verdict.count).toBeGreaterThan(T.baselineMultiplier * median(counts.slice(1)));
        }
      }),
    );
  });
});

describe('Function: fullDays', () => {
  it('drops the partial day of EndDate and sorts newest first', () => {
    const counts = [
      { date: '2026-06-13T00:00:00Z', count: 1 },
      { date: '2026-06-15T00:00:00Z', count: 3 },
      { date: '2026-06-14T00:00:00Z', count: 2 },
    ];
    expect(fullDays(counts, '2026-06-15T12:00:00Z').map((d) => d.count)).toEqual([2, 1]);
    expect(fullDays(counts, '2026-06-16T00:00:00Z').map((d) => d.count)).toEqual([3, 2, 1]);
  });
});
