import { ValidationError } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

/**
 * What one invocation builds. The schedule's event names nothing: the newest report day (the
 * day before yesterday, UTC, as the report fetcher archives it), and, when that day is the last
 * of its month, that month's seats, the first run that has every day of it. A by-hand event
 * may name a day, a month, or both.
 */
const ReportEvent = z.looseObject({
  date: z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/))),
  month: z.optional(z.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/))),
});

export interface RunPlan {
  day: string;
  seatMonth?: string;
}

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function runPlan(event: unknown, now: Date): RunPlan {
  const parsed = z.safeParse(ReportEvent, event ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? '(event)');
    throw new ValidationError(
      `report-builder event ${field}`,
      field === 'month' ? 'must be YYYY-MM' : 'must be YYYY-MM-DD',
    );
  }
  const day = parsed.data.date ?? isoDay(now.getTime() - 2 * DAY_MS);
  // Date.parse rolls 2026-02-31 over to March: a real day reads back as itself.
  const parsedDay = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(parsedDay) || isoDay(parsedDay) !== day)
    throw new ValidationError('report-builder event date', `${day} is not a day`);
  const lastOfMonth = isoDay(Date.parse(`${day}T00:00:00Z`) + DAY_MS).endsWith('-01');
  const seatMonth = parsed.data.month ?? (lastOfMonth ? day.slice(0, 7) : undefined);
  return seatMonth ? { day, seatMonth } : { day };
}
