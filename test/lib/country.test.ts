import { describe, expect, it } from 'vitest';
import { isCountryCode as emulatorIsCountryCode } from '../../emulator/data/countries.js';
import { COUNTRY_CODES, isCountryCode, isVisiblyBlank } from '../../lib/validation/index.js';

/** Withdrawn, reserved, user-assigned and grouping codes that ICU names but ISO does not assign. */
const NOT_ASSIGNED = [
  'UK',
  'DD',
  'SU',
  'YU',
  'ZR',
  'CS',
  'TP',
  'AN',
  'XA',
  'XB',
  'XK',
  'EU',
  'UN',
  'ZZ',
  'QO',
  'EZ',
  'AC',
  'TA',
  'IC',
  'DG',
  'EA',
  'CP',
  'FX',
  'BU',
  'NT',
];

describe('Validation: isCountryCode', () => {
  it('accepts exactly the 249 assigned ISO 3166-1 alpha-2 codes', () => {
    expect(COUNTRY_CODES.size).toBe(249);
    let accepted = 0;
    for (let a = 65; a <= 90; a++)
      for (let b = 65; b <= 90; b++) if (isCountryCode(String.fromCharCode(a, b))) accepted++;
    expect(accepted).toBe(249);
    for (const code of ['GB', 'DE', 'US', 'SS', 'CW', 'SX', 'BQ', 'AX', 'PS', 'TW']) {
      expect(isCountryCode(code)).toBe(true);
    }
  });

  it('refuses withdrawn, reserved and user-assigned codes, and lower case', () => {
    for (const code of [...NOT_ASSIGNED, 'gb', 'Gb', 'GBR', '']) {
      expect({ code, ok: isCountryCode(code) }).toEqual({ code, ok: false });
    }
  });

  it('agrees with the emulator on every two-letter code', () => {
    for (let a = 65; a <= 90; a++)
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        expect(emulatorIsCountryCode(code)).toBe(isCountryCode(code));
      }
  });
});

describe('Validation: isVisiblyBlank', () => {
  it('finds blank what shows nothing: spaces, zero-width and format characters, fillers', () => {
    for (const text of [
      '',
      ' ',
      '\u200b',
      '\u200b\u200c\u200d\ufeff',
      '\u3164',
      '\u115f\u1160',
      '\u2800',
      '\u00ad',
      '\u2060\u180e',
      '\u00a0\u3000',
      '\ufe0f',
    ]) {
      expect({ text, blank: isVisiblyBlank(text) }).toEqual({ text, blank: true });
    }
    for (const text of ['Ada', '\u200bA', 'Zoë', '李', '😀']) {
      expect(isVisiblyBlank(text)).toBe(false);
    }
  });
});
