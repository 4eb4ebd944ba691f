import { all } from 'iso-3166-1';

/**
 * The assigned ISO 3166-1 alpha-2 codes, exactly: the 249 of the `iso-3166-1` package (2.1.1,
 * published December 2024), which follows ISO's Online Browsing Platform. The list has not
 * changed since South Sudan (SS) was assigned on 2011-08-09; test/lib/country.test.ts pins its
 * size so a package update that changes it is noticed. Withdrawn codes (DD, SU, YU, ZR, CS,
 * TP, AN), exceptionally or user-assigned ones (UK, EU, XK, XA…) and ICU's groupings are not
 * countries the service can ship to. The emulator reads the same package.
 */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(all().map((c) => c.alpha2));

/**
 * True for an assigned ISO 3166-1 alpha-2 code in upper case.
 *
 * @example
 * isCountryCode('DE'); // true
 * isCountryCode('UK'); // false (exceptionally reserved; the code is GB)
 */
export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code);
}
