import { DAY_MS, Day, daysFrom, startOfDay } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

const Dates = z.strictObject({ dates: z.array(Day).check(z.minLength(1), z.maxLength(400)) });
// Day aborts on a day the calendar lacks, so these refinements compare real days only.
const Range = z.strictObject({ from: Day, to: Day }).check(
  z.refine((e) => e.from <= e.to, { message: 'from must not be after to', path: ['from'] }),
  z.refine((e) => startOfDay(e.to) - startOfDay(e.from) < 400 * DAY_MS, {
    message: 'a backfill covers at most 400 days',
    path: ['to'],
  }),
);

/**
 * Dates a run covers: undefined means "the newest report" (the daily run). A schedule sends
 * anything else (its payload is ignored) and archives the newest report day plus today's status
 * snapshots; a backfill names `dates`, or `from` and `to` (both included), and archives their
 * reports (snapshots cannot be taken of the past). A malformed backfill throws a ZodError.
 */
export function runDates(event: unknown): string[] | undefined {
  const candidate = event as { dates?: unknown; from?: unknown };
  if (candidate === null || typeof candidate !== 'object') return undefined;
  if ('dates' in candidate) return [...new Set(z.parse(Dates, event).dates)].sort();
  if (!('from' in candidate)) return undefined;
  const { from, to } = z.parse(Range, event);
  return daysFrom(from, to);
}
