/**
 * Finds, in the text of a JSON object, the elements of the array held by one of its top-level
 * members, and answers each element's own text. No library fits: JSON parsers build values and
 * drop the text they came from (Node 20's `JSON.parse` has no source access), and streaming
 * tokenisers cost more than the `JSON.stringify` this replaces.
 *
 * Why: a status page of 1,000 full entries re-serialised with `JSON.stringify` costs ~9 ms of
 * the archive's main thread; slicing the text the service sent costs ~3 ms, and the slices are
 * the service's own bytes (large integers and number formats kept exactly).
 *
 * Only for text that `JSON.parse` has already accepted: it is not a validator. Strings are
 * skipped with `indexOf` (a native search), so the cost is one step per character outside
 * strings: about a third of a status page.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const SPACE = 0x20;

/** Index just past the string that starts at `i` (`text[i]` is a quote), or -1. */
function skipString(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    // A quote preceded by an odd run of backslashes is escaped.
    let before = quote - 1;
    while (text.charCodeAt(before) === BACKSLASH) before--;
    if ((quote - 1 - before) % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** Index just past the object or array that starts at `i`, or -1. */
function skipNested(text: string, i: number): number {
  let depth = 0;
  const end = text.length;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = skipString(text, i);
      if (i < 0) return -1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
    i++;
  }
  return -1;
}

/** Index just past the value that starts at `i` (whitespace already skipped), or -1. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return skipString(text, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return skipNested(text, i);
  // A number, true, false or null: up to the next separator or whitespace.
  let j = i;
  for (;;) {
    const d = text.charCodeAt(j);
    if (Number.isNaN(d) || d <= SPACE || d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET)
      return j === i ? -1 : j;
    j++;
  }
}

function skipSpace(text: string, i: number): number {
  while (text.charCodeAt(i) <= SPACE) i++;
  return i;
}

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
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACKET) return { texts, end: i + 1 };
    if (c !== COMMA) return undefined;
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
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return undefined;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return undefined;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return undefined;
    const nameEnd = skipString(text, i);
    if (nameEnd < 0) return undefined;
    // The name as written: one spelt with escapes is not recognised, and the caller falls back.
    const isMember = nameEnd - i - 2 === member.length && text.startsWith(member, i + 1);
    i = skipSpace(text, nameEnd);
    if (text.charCodeAt(i) !== COLON) return undefined;
    i = skipSpace(text, i + 1);
    let end: number;
    if (isMember) {
      if (text.charCodeAt(i) !== OPEN_BRACKET) return undefined;
      const array = elementTexts(text, i);
      if (!array) return undefined;
      // A member named twice: JSON.parse keeps the last, and so does this.
      found = array.texts;
      end = array.end;
    } else {
      end = skipValue(text, i);
      if (end < 0) return undefined;
    }
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE) return found;
    if (c !== COMMA) return undefined;
    i = skipSpace(text, i + 1);
  }
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
