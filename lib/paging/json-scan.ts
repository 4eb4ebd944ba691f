/**
 * Steps over JSON text without building values: the scanner of `arrayMemberTexts`. Only for
 * text that `JSON.parse` has accepted: it is not a validator. Strings are skipped with `indexOf` (a native search), so
 * the cost is one step per character outside strings.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
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
export function skipValue(text: string, i: number): number {
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

/** Index of the first character at or after `i` that is not whitespace. */
export function skipSpace(text: string, i: number): number {
  while (text.charCodeAt(i) <= SPACE) i++;
  return i;
}

/**
 * Whether `text[i]` is a comma: the separator between an array's elements or an object's
 * members.
 */
export function isComma(text: string, i: number): boolean {
  return text.charCodeAt(i) === COMMA;
}

/** Whether the member name written from `start` to `end` (quotes included) is `name`. */
function nameIs(text: string, start: number, end: number, name: string): boolean {
  if (end - start - 2 === name.length && text.startsWith(name, start + 1)) return true;
  // Spelt with escapes ("Query\u0052esults") it is the same member to JSON.parse.
  const written = text.slice(start, end);
  if (!written.includes('\\')) return false;
  try {
    return JSON.parse(written) === name;
  } catch {
    return false; // not a JSON string at all: the caller's own check rejects the text
  }
}

/**
 * Steps through the members of the top-level object in `text`, in order. For each,
 * `valueEnd(start, named)` answers the index just past the member's value, which starts at
 * `start` (`named`: the member's name is `name`), or -1 to give up. Answers true when the walk
 * reached the object's closing brace, false when it gave up or `text` is not such an object.
 */
export function walkMembers(
  text: string,
  name: string,
  valueEnd: (start: number, named: boolean) => number,
): boolean {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== OPEN_BRACE) return false;
  i = skipSpace(text, i + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return true;
  for (;;) {
    if (text.charCodeAt(i) !== QUOTE) return false;
    const nameEnd = skipString(text, i);
    if (nameEnd < 0) return false;
    const named = nameIs(text, i, nameEnd, name);
    i = skipSpace(text, nameEnd);
    if (text.charCodeAt(i) !== COLON) return false;
    const end = valueEnd(skipSpace(text, i + 1), named);
    if (end < 0) return false;
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === CLOSE_BRACE) return true;
    if (c !== COMMA) return false;
    i = skipSpace(text, i + 1);
  }
}
