/**
 * Finds, in the text of a JSON object, the elements of the array held by one of its top-level
 * members, and answers each element's own text. No library fits: JSON parsers build values and
 * drop the text they came from (Node 20's `JSON.parse` has no source access), and streaming
 * tokenisers cost more than the `JSON.stringify` this replaces.
 *
 * Why: slicing the text the service sent costs the archive's main thread a fraction of what
 * `JSON.stringify` of every entry does, and the slices are the service's own bytes (large
 * integers and number formats kept exactly); docs/performance.md has the figure.
 *
 * Only for text that `JSON.parse` has already accepted: it is not a validator.
 */
import {
  CLOSE_BRACKET,
  isComma,
  OPEN_BRACKET,
  skipSpace,
  skipValue,
  walkMembers,
} from './json-scan.js';

/** The elements of the array starting at `i` (`text[i]` is `[`) and where it ends, or undefined. */
function elementTexts(text: string, i: number): { texts: string[]; end: number } | undefined {
  const texts: string[] = [];
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return { texts, end: i + 1 };
  for (;;) {
    const end = skipValue(text, i);
    if (end < 0) return undefined;
    texts.push(text.slice(i, end));
    i = skipSpace(text, end);
    if (text.charCodeAt(i) === CLOSE_BRACKET) return { texts, end: i + 1 };
    if (!isComma(text, i)) return undefined;
    i = skipSpace(text, i + 1);
  }
}

/**
 * The text of each element of the array at top-level member `member` of the JSON object in
 * `text`, in order; undefined when `text` is not an object holding such an array. Each element
 * is answered exactly as written, inner whitespace included.
 *
 * @example
 * arrayMemberTexts('{"Count":2,"QueryResults":[{"a":1}, {"b":[2]}]}', 'QueryResults');
 * // ['{"a":1}', '{"b":[2]}']
 */
export function arrayMemberTexts(text: string, member: string): string[] | undefined {
  let found: string[] | undefined;
  const closed = walkMembers(text, member, (start, named) => {
    if (!named) return skipValue(text, start);
    // A member named twice: JSON.parse keeps the last, and so does this.
    found = undefined;
    if (text.charCodeAt(start) !== OPEN_BRACKET) return skipValue(text, start);
    const array = elementTexts(text, start);
    if (!array) return -1;
    found = array.texts;
    return array.end;
  });
  return closed ? found : undefined;
}

/**
 * The JSON text of each of `entries`, the validated values of the array at `member` of `body`:
 * sliced from `body` when it splits into as many elements, otherwise `JSON.stringify` of each
 * value (a body the slicer does not follow costs time, never correctness).
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
