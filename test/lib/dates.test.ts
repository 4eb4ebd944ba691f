import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ValidationError,
  validateBlockedWindow,
  validateEffectiveDate,
  validateModifiedSince,
} from '../../lib/index.js';

const NOW = Date.parse('2026-06-15T12:00:00Z');
const DAY = 86_400_000;

function failure(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('Function: validateEffectiveDate', () => {
  it('accepts the day before yesterday UTC and earlier, as YYYY-MM-DD', () => {
    expect(validateEffectiveDate('2026-06-13', NOW)).toBe('2026-06-13');
    expect(validateEffectiveDate('2026-06-13T23:59:59Z', NOW)).toBe('2026-06-13');
    expect(validateEffectiveDate(new Date('2026-01-02T05:00:00Z'), NOW)).toBe('2026-01-02');
  });

  it('rejects yesterday, today and any later day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 400 * DAY }), (offset) => {
        const start = Date.parse('2026-06-14T00:00:00Z');
        const err = failure(() => validateEffectiveDate(new Date(start + offset), NOW));
        expect(err.field).toBe('effectiveDate');
        expect(err.rule).toContain('2026-06-13');
      }),
    );
    expect(failure(() => validateEffectiveDate('13/06/2026', NOW)).rule).toMatch(/date/);
  });
});

describe('Function: validateBlockedWindow', () => {
  it('sends only what was given, normalised to ISO', () => {
    expect(validateBlockedWindow({}, NOW)).toEqual({});
    expect(
      validateBlockedWindow({ startDate: '2026-06-01', endDate: '2026-06-10T06:00:00' }, NOW),
    ).toEqual({
      startDate: '2026-06-01T00:00:00Z',
      endDate: '2026-06-10T06:00:00Z',
    });
  });

  it('rejects a start not before the end', () => {
    expect(
      failure(() => validateBlockedWindow({ startDate: '2026-06-10', endDate: '2026-06-10' }, NOW))
        .field,
    ).toBe('startDate');
  });

  it('rejects a range above 30 days, using the default start of end − 7 days otherwise', () => {
    expect(
      failure(() => validateBlockedWindow({ startDate: '2026-05-01', endDate: '2026-06-01' }, NOW))
        .field,
    ).toBe('endDate');
    expect(validateBlockedWindow({ endDate: '2026-06-01' }, NOW)).toEqual({
      endDate: '2026-06-01T00:00:00Z',
    });
  });

  it('rejects a start older than the history, configurably', () => {
    expect(
      failure(() => validateBlockedWindow({ startDate: '2026-03-01', endDate: '2026-03-10' }, NOW))
        .rule,
    ).toMatch(/90 days/);
    expect(
      failure(() => validateBlockedWindow({ startDate: '2026-06-01' }, NOW, { historyDays: 10 }))
        .rule,
    ).toMatch(/10 days/);
    // Only startDate was given: the error names it, not the endDate the caller never sent.
    const onlyStart = failure(() =>
      validateBlockedWindow({ startDate: '2026-06-01' }, NOW, { maxRangeDays: 7 }),
    );
    expect(onlyStart.field).toBe('startDate');
    expect(onlyStart.rule).toBe(
      'must be at most 7 days before endDate (endDate not given, so now: 2026-06-15T12:00:00Z)',
    );
  });

  it('names the endDate the caller gave when the default startDate is too old', () => {
    const error = failure(() => validateBlockedWindow({ endDate: '2026-03-10' }, NOW));
    expect(error.field).toBe('endDate');
    expect(error.rule).toBe(
      'must leave startDate at most 90 days ago ' +
        '(startDate not given, so endDate − 7 days: 2026-03-03T00:00:00Z)',
    );
  });

  it('names the startDate the caller gave when it is not before the default endDate', () => {
    const error = failure(() => validateBlockedWindow({ startDate: '2026-06-16' }, NOW));
    expect(error.field).toBe('startDate');
    expect(error.rule).toMatch(
      /before endDate \(endDate not given, so now: 2026-06-15T12:00:00Z\)/,
    );
  });

  it('only ever names a field the caller gave', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: -200 * DAY, max: 2 * DAY })),
        fc.option(fc.integer({ min: -200 * DAY, max: 2 * DAY })),
        fc.integer({ min: 1, max: 60 }),
        (startOffset, endOffset, maxRangeDays) => {
          fc.pre(startOffset !== null || endOffset !== null);
          const input = {
            ...(startOffset === null ? {} : { startDate: new Date(NOW + startOffset) }),
            ...(endOffset === null ? {} : { endDate: new Date(NOW + endOffset) }),
          };
          try {
            validateBlockedWindow(input, NOW, { maxRangeDays });
          } catch (error) {
            refused++;
            expect(error).toBeInstanceOf(ValidationError);
            expect(Object.keys(input)).toContain((error as ValidationError).field);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(refused).toBeGreaterThan(0);
  });

  it('accepts every window inside the rules', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 89 * DAY }),
        fc.integer({ min: 1, max: 30 * DAY }),
        (back, len) => {
          const start = NOW - back;
          const end = Math.min(start + len, NOW + DAY);
          fc.pre(
            end > start && Math.min(end, NOW) - start <= 30 * DAY && Math.min(end, NOW) > start,
          );
          expect(() =>
            validateBlockedWindow({ startDate: new Date(start), endDate: new Date(end) }, NOW),
          ).not.toThrow();
        },
      ),
    );
  });
});

describe('Function: validateModifiedSince', () => {
  it('reads dates as UTC midnight and keeps offsets', () => {
    expect(validateModifiedSince('2026-06-01')).toBe('2026-06-01T00:00:00Z');
    expect(validateModifiedSince('2026-06-01T02:00:00+02:00')).toBe('2026-06-01T00:00:00Z');
    expect(failure(() => validateModifiedSince('yesterday')).field).toBe('modifiedSince');
  });

  it('refuses a day the calendar lacks instead of rolling it over into March', () => {
    for (const text of ['2026-02-31', '2026-02-30T10:00:00Z', '2026-13-01T00:00:00'])
      expect(failure(() => validateModifiedSince(text)).field).toBe('modifiedSince');
  });
});
