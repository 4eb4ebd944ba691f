import { ValidationError } from '../errors/errors.js';

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}:?\d{2})$/i;

/** A date-time input: a Date, epoch milliseconds, `YYYY-MM-DD` (00:00 UTC) or ISO 8601. */
export type DateInput = Date | number | string;

/**
 * Converts a date input to epoch milliseconds; an ISO text without offset is read as UTC.
 *
 * @example
 * toInstant('2026-06-12', 'startDate'); // Date.UTC(2026, 5, 12)
 */
export function toInstant(value: DateInput, field: string): number {
  let ms = Number.NaN;
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === 'number') ms = value;
  else if (typeof value === 'string' && DATE_ONLY.test(value))
    ms = Date.parse(`${value}T00:00:00Z`);
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) {
    ms = Date.parse(HAS_OFFSET.test(value) ? value : `${value}Z`);
  }
  if (!Number.isFinite(ms)) {
    throw new ValidationError(
      field,
      'must be a date (YYYY-MM-DD), an ISO 8601 date-time or a Date',
    );
  }
  return ms;
}

/** ISO text without milliseconds, the form the service echoes. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/**
 * Checks a report effectiveDate: reports exist up to the day before yesterday (UTC).
 * Returns the UTC date as `YYYY-MM-DD`.
 *
 * @example
 * validateEffectiveDate('2026-06-13', Date.parse('2026-06-15T12:00:00Z')); // '2026-06-13'
 */
export function validateEffectiveDate(
  value: DateInput,
  nowMs: number,
  field = 'effectiveDate',
): string {
  const day = startOfUtcDay(toInstant(value, field));
  const latest = startOfUtcDay(nowMs) - 2 * DAY_MS;
  if (day > latest) {
    throw new ValidationError(
      field,
      `must be on or before the day before yesterday UTC (${isoSeconds(latest).slice(0, 10)})`,
    );
  }
  return isoSeconds(day).slice(0, 10);
}

export interface WindowLimits {
  /** Longest range between startDate and endDate, in days. @default 30 */
  maxRangeDays?: number;
  /** How far back startDate may go, in days. @default 90 */
  historyDays?: number;
}

/**
 * Checks the blocked-URL window with the service's defaults filled in (end = now, start =
 * end − 7 days): start before end, at most 30 days apart, start not older than 90 days.
 * An error names a field the caller gave and says which default it assumed for the other.
 * Returns the query values for what the caller gave.
 *
 * @example
 * validateBlockedWindow({ startDate: '2026-06-01' }, Date.now());
 */
export function validateBlockedWindow(
  input: { startDate?: DateInput; endDate?: DateInput },
  nowMs: number,
  limits: WindowLimits = {},
): { startDate?: string; endDate?: string } {
  const maxDays = limits.maxRangeDays ?? 30;
  const historyDays = limits.historyDays ?? 90;
  const givenEnd = input.endDate === undefined ? undefined : toInstant(input.endDate, 'endDate');
  const givenStart =
    input.startDate === undefined ? undefined : toInstant(input.startDate, 'startDate');
  // The service treats an endDate in the future as now, so the range is measured from there.
  const end = Math.min(givenEnd ?? nowMs, nowMs);
  const start = givenStart ?? end - 7 * DAY_MS;
  const assumed = [
    ...(givenStart === undefined
      ? [`startDate not given, so endDate − 7 days: ${isoSeconds(start)}`]
      : []),
    ...(givenEnd === undefined ? [`endDate not given, so now: ${isoSeconds(nowMs)}`] : []),
  ];
  const note = assumed.length > 0 ? ` (${assumed.join('; ')})` : '';
  if (givenStart !== undefined && start >= (givenEnd ?? nowMs)) {
    throw new ValidationError('startDate', `must be before endDate${note}`);
  }
  if (end - start > maxDays * DAY_MS) {
    // Blame the end only when the caller gave it; otherwise the start they gave is too early.
    if (givenEnd !== undefined) {
      throw new ValidationError(
        'endDate',
        `must be at most ${maxDays} days after startDate${note}`,
      );
    }
    throw new ValidationError('startDate', `must be at most ${maxDays} days before endDate${note}`);
  }
  if (start < nowMs - historyDays * DAY_MS) {
    if (givenStart !== undefined || givenEnd === undefined) {
      throw new ValidationError(
        'startDate',
        `must not be more than ${historyDays} days ago${note}`,
      );
    }
    throw new ValidationError(
      'endDate',
      `must leave startDate at most ${historyDays} days ago${note}`,
    );
  }
  return {
    ...(givenStart === undefined ? {} : { startDate: isoSeconds(givenStart) }),
    ...(givenEnd === undefined ? {} : { endDate: isoSeconds(givenEnd) }),
  };
}

/**
 * Normalises modifiedSince to ISO text.
 *
 * @example
 * validateModifiedSince(new Date('2026-06-01T00:00:00Z')); // '2026-06-01T00:00:00Z'
 */
export function validateModifiedSince(value: DateInput, field = 'modifiedSince'): string {
  return isoSeconds(toInstant(value, field));
}
