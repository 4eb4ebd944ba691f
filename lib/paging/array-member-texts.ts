/**
 * Reads a JSON object whose one member is a large array (a status page's `QueryResults`)
 * without building the array's elements: the text is checked whole against the JSON grammar,
 * each element is answered as its own text, and only the other, small members are parsed.
 *
 * Why: an archive keeps each element as the service wrote it (large integers and number
 * formats kept exactly) and reads none of it; building a page's elements with `JSON.parse`
 * only to drop them costs more than this whole pass, in time and in garbage
 * (docs/performance.md has the figures).
 */
import { JsonScan } from './json-scan.js';

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** The member name written from `start` to `end`, quotes included, as JSON.parse reads it. */
function nameAt(text: string, start: number, end: number): string {
  const written = text.slice(start + 1, end - 1);
  return written.includes('\\') ? (JSON.parse(text.slice(start, end)) as string) : written;
}

export interface ArrayMember {
  /** Every other member of the object, parsed, in order (the last of a repeated name). */
  others: Record<string, unknown>;
  /** The text of each element of the array, in order, exactly as written. */
  texts: string[];
}

/**
 * The object in `text` with its array member `member` as element texts; undefined when `text`
 * is not valid JSON, or not an object whose `member` is an array (read it with `JSON.parse`
 * then: this only makes the usual case cheaper).
 *
 * @example
 * readArrayMember('{"Count":2,"QueryResults":[{"a":1}, {"b":[2]}]}', 'QueryResults');
 * // { others: { Count: 2 }, texts: ['{"a":1}', '{"b":[2]}'] }
 */
export function readArrayMember(text: string, member: string): ArrayMember | undefined {
  try {
    return scanArrayMember(text, member);
  } catch (error) {
    // Nesting deeper than the stack allows: JSON.parse, which does not recurse, reads it.
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

function scanArrayMember(text: string, member: string): ArrayMember | undefined {
  const scan = new JsonScan(text);
  const start = scan.space(0);
  if (text.charCodeAt(start) !== OPEN_BRACE) return undefined;
  const others: Record<string, unknown> = {};
  // The member's elements; undefined while it is absent, or when the last one is no array.
  let texts: string[] | undefined;
  const end = scan.members(start, (valueStart, nameStart, nameEnd) => {
    const name = nameAt(text, nameStart, nameEnd);
    if (name === member) {
      // A member named twice: JSON.parse keeps the last, and so does this.
      texts = undefined;
      if (text.charCodeAt(valueStart) !== OPEN_BRACKET) return scan.value(valueStart);
      const elements: string[] = [];
      texts = elements;
      return scan.array(valueStart, (from, to) => elements.push(text.slice(from, to)));
    }
    const valueEnd = scan.value(valueStart);
    if (valueEnd < 0) return -1;
    // As JSON.parse defines it: an own property, even for a name such as __proto__.
    Object.defineProperty(others, name, {
      value: JSON.parse(text.slice(valueStart, valueEnd)),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return valueEnd;
  });
  if (end < 0 || scan.space(end) !== text.length || !texts) return undefined;
  return { others, texts };
}

/**
 * The text of each element of the array at top-level member `member` of the JSON object in
 * `text`, in order; undefined when `text` is not valid JSON or holds no such array.
 *
 * @example
 * arrayMemberTexts('{"Count":2,"QueryResults":[{"a":1}, {"b":[2]}]}', 'QueryResults');
 * // ['{"a":1}', '{"b":[2]}']
 */
export function arrayMemberTexts(text: string, member: string): string[] | undefined {
  return readArrayMember(text, member)?.texts;
}

/**
 * The JSON text of each of `entries`, the values of the array at `member` of `body`: sliced
 * from `body` when it reads as such an object with as many elements, otherwise `JSON.stringify`
 * of each value (a body this does not read costs time, never correctness).
 *
 * @example
 * const texts = entryTextsOf(responseText, 'QueryResults', page.QueryResults);
 */
export function entryTextsOf(
  body: string,
  member: string,
  entries: readonly unknown[],
): readonly string[] {
  const texts = arrayMemberTexts(body, member);
  if (texts?.length === entries.length) return texts;
  return entries.map((entry) => JSON.stringify(entry));
}
