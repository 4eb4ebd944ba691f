import { all } from 'iso-3166-1';

/**
 * The assigned ISO 3166-1 alpha-2 codes, from the same package as lib/validation/country.ts, so
 * the stand-in and the client agree on one list.
 */
const CODES = new Set(all().map((c) => c.alpha2));

export function isCountryCode(code: string): boolean {
  return CODES.has(code);
}
