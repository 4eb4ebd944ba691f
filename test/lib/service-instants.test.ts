import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DateTime, instantMs, UtcInstant, utcInstant, ValidationError } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

/** Instants from 1970 to 9998 (a day of offset stays within four-digit years). */
const instant = fc.integer({ min: 0, max: Date.UTC(9998, 11, 31, 23, 59, 59, 999) });
const zone = fc.oneof(
  fc.constant(''),
  fc.constant('Z'),
  fc.constant('z'),
  fc.integer({ min: -14 * 60, max: 14 * 60 }),
);

/** `ms` written as the service might: 0–7 fractional digits, a zone of any kind or none. */
function render(ms: number, digits: number, extra: string, zn: string | number): string {
  const offset = typeof zn === 'number' ? zn : 0;
  const local = new Date(ms + offset * 60_000).toISOString();
  const seconds = local.slice(0, 19);
  const fraction = `${local.slice(20, 23)}${extra}`.slice(0, digits);
  let zoneText: string;
  if (typeof zn === 'string') zoneText = zn;
  else {
    const sign = zn < 0 ? '-' : '+';
    const abs = Math.abs(zn);
    zoneText = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }
  return `${seconds}${digits > 0 ? `.${fraction}` : ''}${zoneText}`;
}

describe('Function: instantMs', () => {
  it('reads every rendering to its instant, truncated to the millisecond', () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 0, max: 7 }),
        fc.stringMatching(/^\d{4}$/),
        zone,
        (ms, digits, extra, zn) => {
          const text = render(ms, digits, extra, zn);
          // Fewer than three digits drop what they do not write.
          const kept = digits >= 3 ? ms : ms - (ms % 10 ** (3 - digits));
          expect(instantMs(text)).toBe(kept);
          expect(utcInstant(text)).toBe(new Date(kept).toISOString());
          expect(z.safeParse(DateTime, text).success).toBe(true);
        },
      ),
    );
  });

  it('reads a text without a zone as UTC, whatever the local zone', () => {
    expect(instantMs('2023-05-04T12:17:39')).toBe(Date.UTC(2023, 4, 4, 12, 17, 39));
    expect(utcInstant('2022-11-29T10:36:02.2629051Z')).toBe('2022-11-29T10:36:02.262Z');
    expect(utcInstant('2026-06-15T00:00:00.0000000Z')).toBe('2026-06-15T00:00:00.000Z');
    expect(utcInstant('2026-06-15T02:00:00+02:00')).toBe('2026-06-15T00:00:00.000Z');
  });

  it('keeps time order in the normalised text, which the renderings do not', () => {
    fc.assert(
      fc.property(instant, instant, fc.integer({ min: 0, max: 7 }), zone, (a, b, digits, zn) => {
        const ta = utcInstant(render(a, 7, '0000', zn));
        const tb = utcInstant(render(b, digits, '0', ''));
        const textOrder = ta < tb ? -1 : ta > tb ? 1 : 0;
        expect(textOrder).toBe(Math.sign(instantMs(ta) - instantMs(tb)));
      }),
    );
  });

  it('refuses text in no rendering, and dates that do not exist, with a ValidationError', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(text));
        expect(() => instantMs(text)).toThrow(ValidationError);
        expect(z.safeParse(DateTime, text).success).toBe(false);
      }),
    );
    for (const bad of [
      '2023-02-30T00:00:00Z',
      '2023-05-04T24:00:00',
      '2023-05-04T12:17:39.12345678Z',
      '2023-05-04 12:17:39Z',
      '',
    ]) {
      expect(() => instantMs(bad)).toThrow(ValidationError);
    }
    // The schema checks the rendering; a function's needs check the date exists.
    expect(z.safeParse(UtcInstant, '2023-02-30T00:00:00Z').success).toBe(false);
    expect(z.parse(UtcInstant, '2023-05-04T12:17:39')).toBe('2023-05-04T12:17:39.000Z');
  });
});
