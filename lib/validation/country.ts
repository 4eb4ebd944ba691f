/**
 * ISO 3166-1 alpha-2 country codes, from the ICU data Node ships rather than a list kept by
 * hand. ICU also names groupings (EU, UN, QO, EZ) and "unknown" (ZZ), which are not countries.
 *
 * @example
 * isCountryCode('DE'); // true
 * isCountryCode('JJ'); // false
 */
export function isCountryCode(code: string): boolean {
  return (
    /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && regionNames().of(code) !== undefined
  );
}

const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'ZZ']);

// Built on first use: loading ICU's region names is a cost every function would otherwise
// pay at cold start (docs/performance.md) although only the cart webhook checks country codes.
let names: Intl.DisplayNames | undefined;
function regionNames(): Intl.DisplayNames {
  names ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return names;
}
