import { ValidationError } from '../errors/errors.js';
import { DAY_MS, dayOf, isDay, startOfDay } from './day.js';

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
  else if (typeof value === 'string' && isDay(value)) ms = startOfDay(value);
  // A date-time whose day the calendar lacks is refused too, not rolled over into next month.
  else if (typeof value === 'string' && value[10] === 'T' && isDay(value.slice(0, 10))) {
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

/**
 * Every rendering of an instant the service is known to write (docs/service-choices.md
 * "Dates"): date and time to the second, 0 to 7 fractional digits, then `Z`, an offset, or
 * nothing (UTC). Fields are range-checked (month 01-12, hour 00-23...); whether the day exists
 * in its month is `instantMs`'s to check. Groups: date, time, fraction, zone.
 */
export const SERVICE_INSTANT =
  /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,7}))?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Epoch milliseconds of an instant as the service writes it, in any of its renderings; a text
 * without a zone is UTC. Digits past the millisecond are dropped (truncated, as .NET ticks
 * would be). Throws a ValidationError for text in no known rendering.
 *
 * @example
 * instantMs('2023-05-04T12:17:39'); // Date.UTC(2023, 4, 4, 12, 17, 39)
 * instantMs('2022-11-29T10:36:02.2629051Z'); // …02.262
 */
export function instantMs(text: string, field = 'instant'): number {
  const m = SERVICE_INSTANT.exec(text);
  if (!m) throw new ValidationError(field, 'must be an ISO 8601 date-time');
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = m;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    const sign = digits.startsWith('-') ? -1 : 1;
    offsetMinutes = sign * (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)));
  }
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  // Date.UTC rolls 2023-02-30 over into March: a date that does not exist is refused instead.
  const check = new Date(utc);
  if (
    check.getUTCDate() !== Number(d) ||
    check.getUTCMonth() !== Number(mo) - 1 ||
    Number(h) > 23 ||
    Number(mi) > 59 ||
    Number(s) > 59
  ) {
    throw new ValidationError(field, 'must be an existing date and time');
  }
  return utc - offsetMinutes * 60_000;
}

/**
 * The one normalised form of a service instant: UTC, milliseconds, `Z`
 * (`Date.prototype.toISOString`). Texts in this form sort as their instants do, which the
 * service's own renderings do not.
 *
 * @example
 * utcInstant('2023-05-04T12:17:39'); // '2023-05-04T12:17:39.000Z'
 */
export function utcInstant(text: string, field = 'instant'): string {
  return new Date(instantMs(text, field)).toISOString();
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
      `must be on or before the day before yesterday UTC (${dayOf(latest)})`,
    );
  }
  return dayOf(day);
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
