import { describe, expect, it } from 'vitest';
import { runPlan } from '../../functions/report-builder/run-plan.js';

const at = (iso: string) => new Date(iso);

describe('Function: runPlan', () => {
  it('builds the day before yesterday, as the report fetcher archives it', () => {
    expect(runPlan({ 'detail-type': 'Scheduled Event' }, at('2026-06-16T08:00:00Z'))).toEqual({
      day: '2026-06-14',
    });
  });

  it("adds the month's seats when the day is the month's last", () => {
    expect(runPlan({}, at('2026-07-02T08:00:00Z'))).toEqual({
      day: '2026-06-30',
      seatMonth: '2026-06',
    });
    expect(runPlan({}, at('2028-03-02T08:00:00Z')).seatMonth).toBe('2028-02');
  });

  it('takes a day and a month from a by-hand event', () => {
    expect(runPlan({ date: '2026-05-03', month: '2026-04' }, at('2026-06-16T08:00:00Z'))).toEqual({
      day: '2026-05-03',
      seatMonth: '2026-04',
    });
  });

  it('refuses what is not a day or a month', () => {
    expect(() => runPlan({ date: '2026-6-1' }, new Date())).toThrow(/date/);
    expect(() => runPlan({ date: '2026-02-31' }, new Date())).toThrow(/2026-02-31 is not a date/);
    expect(() => runPlan({ month: '2026-13' }, new Date())).toThrow(/YYYY-MM/);
  });
});
