import * as z from '../zod.js';

/** Days are `YYYY-MM-DD` in UTC, which has no daylight saving (and Date no leap seconds). */
export const DAY_MS = 86_400_000;

/**
 * Whether `text` is `YYYY-MM-DD` and a day the calendar has: Date.parse rolls 2026-02-31 over
 * into March, a real day reads back as itself. @example isDay('2028-02-29'); // true
 */
export function isDay(text: string): boolean {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(text) ? startOfDay(text) : Number.NaN;
  return Number.isFinite(ms) && dayOf(ms) === text;
}

const notADay = (issue: { input?: unknown }) => `${String(issue.input)} is not a date (YYYY-MM-DD)`;

/**
 * A day at the boundary; the message names what was given.
 * @example z.parse(Day, '2026-02-31'); // ZodError: 2026-02-31 is not a date (YYYY-MM-DD)
 */
export const Day = z.string({ error: notADay }).check(
  // abort: a refinement of the object holding the day does not run on an impossible day.
  z.refine(isDay, { error: notADay, abort: true }),
);

/** Whether `text` is a month, `YYYY-MM` with a month 01-12. @example isMonth('2026-13'); // false */
export function isMonth(text: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(text);
}

const notAMonth = (issue: { input?: unknown }) => `${String(issue.input)} is not a month (YYYY-MM)`;

/** A month at the boundary; the message names what was given. */
export const Month = z
  .string({ error: notAMonth })
  .check(z.refine(isMonth, { error: notAMonth, abort: true }));

/** The UTC day of an instant. @example dayOf(Date.UTC(2026, 5, 14, 23, 59)); // '2026-06-14' */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Epoch ms of a day's 00:00 UTC. @example startOfDay('2026-06-14'); // Date.UTC(2026, 5, 14) */
export function startOfDay(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}

/** The day n days after `day` (n < 0: before). @example addDays('2028-02-28', 2) // '2028-03-01' */
export function addDays(day: string, n: number): string {
  return dayOf(startOfDay(day) + n * DAY_MS);
}

/**
 * The days from `from` to `to`, both included, oldest first; none when `to` is before `from`.
 * @example daysFrom('2026-02-28', '2026-03-01'); // ['2026-02-28', '2026-03-01']
 */
export function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = startOfDay(from); t <= startOfDay(to); t += DAY_MS) days.push(dayOf(t));
  return days;
}

/** The `count` days ending on `last`, oldest first. @example daysUpTo('2026-03-01', 7) */
export function daysUpTo(last: string, count: number): string[] {
  return daysFrom(addDays(last, 1 - count), last);
}
