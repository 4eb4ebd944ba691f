/**
 * A JSON value written with insignificant whitespace from `gaps` (taken in turn) between its
 * tokens: the same value as `JSON.stringify` writes, spaced the way other services might.
 *
 * @example
 * spacedJson({ a: [1] }, [' ', '\n']); // '{ "a"\n: [ 1\n] }' (gaps in turn)
 */
export function spacedJson(value: unknown, gaps: readonly string[]): string {
  let n = 0;
  const gap = () => gaps[n++ % gaps.length] ?? '';
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${gap()}${v.map(write).join(`${gap()},${gap()}`)}${gap()}]`;
    if (v !== null && typeof v === 'object') {
      const members = Object.entries(v).map(
        ([k, x]) => `${JSON.stringify(k)}${gap()}:${gap()}${write(x)}`,
      );
      return `{${gap()}${members.join(`${gap()},${gap()}`)}${gap()}}`;
    }
    return JSON.stringify(v);
  };
  return write(value);
}
