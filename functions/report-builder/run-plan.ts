import { addDays, Day, dayOf, Month, ValidationError } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

/**
 * What one invocation builds. The schedule's event names nothing: the newest report day (the
 * day before yesterday, UTC, as the report fetcher archives it), and, when that day is the last
 * of its month, that month's seats, the first run that has every day of it. A by-hand event
 * may name a day, a month, or both.
 */
const ReportEvent = z.looseObject({
  date: z.optional(Day),
  month: z.optional(Month),
});

export interface RunPlan {
  day: string;
  seatMonth?: string;
}

export function runPlan(event: unknown, now: Date): RunPlan {
  const parsed = z.safeParse(ReportEvent, event ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? '(event)');
    const rule = field === 'month' ? 'must be YYYY-MM' : (issue?.message ?? 'must be YYYY-MM-DD');
    throw new ValidationError(`report-builder event ${field}`, rule);
  }
  const day = parsed.data.date ?? addDays(dayOf(now.getTime()), -2);
  const lastOfMonth = addDays(day, 1).endsWith('-01');
  const seatMonth = parsed.data.month ?? (lastOfMonth ? day.slice(0, 7) : undefined);
  return seatMonth ? { day, seatMonth } : { day };
}
