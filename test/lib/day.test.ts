import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  DAY_MS,
  Day,
  dayOf,
  daysFrom,
  daysUpTo,
  isDay,
  startOfDay,
} from '../../lib/index.js';
import * as z from '../../lib/zod.js';

const FIRST = Date.parse('0000-01-01T00:00:00Z');
const LAST = Date.parse('9999-12-31T00:00:00Z');
/** Every day the form YYYY-MM-DD can name. */
const realDay = fc.integer({ min: FIRST, max: LAST }).map(dayOf);

/** The calendar's answer, by Date's own month arithmetic (no DAY_MS, no year-0..99 mapping). */
function calendar(year: number, month: number, date: number): string {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, date);
  return dayOf(d.getTime());
}
const parts = (day: string) => day.split('-').map(Number) as [number, number, number];
const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('Schema: Day', () => {
  it('accepts real days, 29 February of a leap year among them', () => {
    for (const day of ['2026-06-14', '2028-02-29', '2000-02-29', '2026-12-31', '0000-01-01'])
      expect(z.parse(Day, day)).toBe(day);
  });

  it.each([
    '2026-02-31',
    '2026-02-30',
    '2026-02-29',
    '1900-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-06-00',
  ])('refuses %s, naming it', (day) => {
    const result = z.safeParse(Day, day);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(`${day} is not a date (YYYY-MM-DD)`);
  });

  it.each(['2026-6-1', ' 2026-06-01', '2026-06-01T00:00:00Z', '14/06/2026', '+02026-06-01', ''])(
    'refuses text in another form: %j',
    (text) => expect(z.safeParse(Day, text).success).toBe(false),
  );

  it('refuses what is not text, naming it too', () => {
    expect(z.safeParse(Day, 20260614).error?.issues[0]?.message).toBe(
      '20260614 is not a date (YYYY-MM-DD)',
    );
    for (const value of [null, undefined, new Date()])
      expect(z.safeParse(Day, value).success).toBe(false);
  });

  it('accepts exactly the YYYY-MM-DD texts the calendar has, and each reads back as itself', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        (y, m, d) => {
          const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          const exists = m >= 1 && m <= 12 && d >= 1 && calendar(y, m, d) === text;
          expect(z.safeParse(Day, text).success).toBe(exists);
          expect(isDay(text)).toBe(exists);
          if (exists) expect(new Date(`${text}T00:00:00Z`).toISOString().slice(0, 10)).toBe(text);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('Function: day arithmetic', () => {
  it('does what the examples say', () => {
    expect(dayOf(Date.UTC(2026, 5, 14, 23, 59))).toBe('2026-06-14');
    expect(startOfDay('2026-06-14')).toBe(Date.UTC(2026, 5, 14));
    expect(addDays('2028-02-28', 2)).toBe('2028-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysFrom('2026-02-27', '2026-03-01')).toEqual([
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
    ]);
    expect(daysFrom('2026-03-02', '2026-03-01')).toEqual([]);
    expect(daysUpTo('2026-03-01', 2)).toEqual(['2026-02-28', '2026-03-01']);
    expect(daysUpTo('2026-03-01', 0)).toEqual([]);
  });

  it('addDays agrees with the calendar for every day and offset', () => {
    fc.assert(
      fc.property(realDay, fc.integer({ min: -1000, max: 1000 }), (day, n) => {
        fc.pre(startOfDay(day) + n * DAY_MS >= FIRST && startOfDay(day) + n * DAY_MS <= LAST);
        const [y, m, d] = parts(day);
        expect(addDays(day, n)).toBe(calendar(y, m, d + n));
      }),
    );
  });

  it('daysFrom lists each calendar day once, in order, both ends included', () => {
    fc.assert(
      fc.property(realDay, fc.integer({ min: 0, max: 500 }), (from, span) => {
        const [y, m, d] = parts(from);
        const to = calendar(y, m, d + span);
        fc.pre(startOfDay(to) <= LAST);
        const days = Array.from({ length: span + 1 }, (_, i) => calendar(y, m, d + i));
        expect(daysFrom(from, to)).toEqual(days);
        expect(daysUpTo(to, span + 1)).toEqual(days);
      }),
    );
  });

  it('dayOf and startOfDay undo each other on every instant of a day', () => {
    fc.assert(
      fc.property(realDay, fc.integer({ min: 0, max: DAY_MS - 1 }), (day, ms) => {
        expect(dayOf(startOfDay(day) + ms)).toBe(day);
      }),
    );
  });
});
