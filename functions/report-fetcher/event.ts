import * as z from '../../lib/zod.js';

const DAY_MS = 86_400_000;
const Day = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD'));

/**
 * What starts a run. A schedule sends anything else (its payload is ignored) and archives the
 * newest report day plus today's status snapshots; a backfill names dates and archives their
 * reports (snapshots cannot be taken of the past).
 */
export const FetchEvent = z.union([
  z.strictObject({ dates: z.array(Day).check(z.minLength(1), z.maxLength(400)) }),
  z.strictObject({ from: Day, to: Day }).check(
    z.refine((e) => e.from <= e.to, { message: 'from must not be after to', path: ['from'] }),
    z.refine((e) => (Date.parse(e.to) - Date.parse(e.from)) / DAY_MS < 400, {
      message: 'a backfill covers at most 400 days',
      path: ['to'],
    }),
  ),
]);
export type FetchEvent = z.infer<typeof FetchEvent>;

/** Dates a run covers: undefined means "the newest report" (the daily run). */
export function runDates(event: unknown): string[] | undefined {
  const candidate = event as { dates?: unknown; from?: unknown };
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    (!('dates' in candidate) && !('from' in candidate))
  ) {
    return undefined;
  }
  const parsed = z.parse(FetchEvent, event);
  if ('dates' in parsed) return [...new Set(parsed.dates)].sort();
  const dates: string[] = [];
  for (let t = Date.parse(parsed.from); t <= Date.parse(parsed.to); t += DAY_MS) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

/** A day after another (YYYY-MM-DD arithmetic). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}
