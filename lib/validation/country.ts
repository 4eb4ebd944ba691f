/**
 * ISO 3166-1 alpha-2 country codes, from the ICU data Node ships rather than a list kept by
 * hand. ICU also names groupings (EU, UN, QO, EZ) and "unknown" (ZZ), which are not countries.
 *
 * @example
 * isCountryCode('DE'); // true
 * isCountryCode('JJ'); // false
 */
const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);

export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && names.of(code) !== undefined;
}
