/**
 * Client version. A constant rather than a read of package.json: esbuild bundles of the Lambda
 * functions have no package.json next to them at run time. test/lib/version.test.ts fails when
 * it and package.json differ.
 */
export const VERSION = '0.1.0';

/**
 * Builds the User-Agent the service asks every client to send: "one or more name and version
 * pairs separated by a whitespace character" (the vendor's API Reference), so a suffix word
 * without a version gets the client's.
 *
 * @example
 * userAgent('report-fetcher'); // 'Skywatch/0.1.0 (+https://github.com/skywatch) node/v20.11.0 report-fetcher/0.1.0'
 */
export function userAgent(suffix?: string): string {
  const base = `Skywatch/${VERSION} (+https://github.com/skywatch) node/${process.version}`;
  const words = (suffix ?? '').split(/\s+/).filter(Boolean);
  const pairs = words.map((w) => (w.includes('/') || w.startsWith('(') ? w : `${w}/${VERSION}`));
  return pairs.length > 0 ? `${base} ${pairs.join(' ')}` : base;
}
