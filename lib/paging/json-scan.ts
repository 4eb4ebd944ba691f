/**
 * Checks JSON text against the grammar (RFC 8259, as `JSON.parse` reads it) without building
 * values: each function answers the index just past what starts at `i`, or -1 when the text
 * is not valid there. The scanner of `readArrayMember`.
 *
 * No library fits: JSON parsers build every value (the garbage this avoids) and drop the text
 * they came from, and streaming tokenisers hand out a callback a token, many times slower than
 * `JSON.parse`. Strings, most of a page's bytes, are crossed with native searches (`indexOf`,
 * one regular expression for control characters) and only a string holding a backslash is
 * read a character at a time.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids exactly these in strings.
const CONTROL = /[\u0000-\u001f]/g;
/** The characters a backslash may escape: " \ / b f n r t. */
const ESCAPED = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

function isHex(c: number): boolean {
  return isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/**
 * One pass over one text. It remembers where the next backslash and the next control
 * character are, so that a string holding neither is checked by one `indexOf`.
 */
export class JsonScan {
  private nextBackslash = -1;
  private nextControl = -1;

  constructor(readonly text: string) {}

  /** Index of the first character at or after `i` that is not JSON whitespace. */
  space(i: number): number {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else return i;
    }
  }

  /** Past the value at `i` (whitespace already skipped), or -1. */
  value(i: number): number {
    const c = this.text.charCodeAt(i);
    if (c === QUOTE) return this.string(i);
    if (c === OPEN_BRACE) return this.object(i);
    if (c === OPEN_BRACKET) return this.array(i, undefined);
    if (c === MINUS || isDigit(c)) return this.number(i);
    const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : undefined;
    return word !== undefined && this.text.startsWith(word, i) ? i + word.length : -1;
  }

  /** Past the string at `i` (`text[i]` is a quote), or -1. */
  string(i: number): number {
    const t = this.text;
    const close = t.indexOf('"', i + 1);
    if (close < 0) return -1;
    // Both stay valid until a string starts past them: nothing between was a backslash.
    if (this.nextBackslash <= i) {
      const at = t.indexOf('\\', i + 1);
      this.nextBackslash = at < 0 ? Number.POSITIVE_INFINITY : at;
    }
    if (this.nextControl <= i) {
      CONTROL.lastIndex = i + 1;
      const found = CONTROL.exec(t);
      this.nextControl = found ? found.index : Number.POSITIVE_INFINITY;
    }
    if (this.nextBackslash > close && this.nextControl > close) return close + 1;
    return this.escapedString(i);
  }

  /** Past the object at `i` (`text[i]` is `{`), or -1. */
  object(i: number): number {
    // The loop of `members` again, without its callback: objects are most of what a page
    // nests, and one loop serving both ran a page a third slower (docs/performance.md).
    const t = this.text;
    i = this.space(i + 1);
    if (t.charCodeAt(i) === CLOSE_BRACE) return i + 1;
    for (;;) {
      if (t.charCodeAt(i) !== QUOTE) return -1;
      const nameEnd = this.string(i);
      if (nameEnd < 0) return -1;
      const colon = this.space(nameEnd);
      if (t.charCodeAt(colon) !== COLON) return -1;
      const end = this.value(this.space(colon + 1));
      if (end < 0) return -1;
      i = this.space(end);
      const c = t.charCodeAt(i);
      if (c === CLOSE_BRACE) return i + 1;
      if (c !== COMMA) return -1;
      i = this.space(i + 1);
    }
  }

  /**
   * Past the object at `i` (`text[i]` is `{`), or -1, calling `member(valueStart, nameStart,
   * nameEnd)` for each member, which answers past the member's value or -1.
   */
  members(
    i: number,
    member: (valueStart: number, nameStart: number, nameEnd: number) => number,
  ): number {
    const t = this.text;
    i = this.space(i + 1);
    if (t.charCodeAt(i) === CLOSE_BRACE) return i + 1;
    for (;;) {
      if (t.charCodeAt(i) !== QUOTE) return -1;
      const nameEnd = this.string(i);
      if (nameEnd < 0) return -1;
      const colon = this.space(nameEnd);
      if (t.charCodeAt(colon) !== COLON) return -1;
      const end = member(this.space(colon + 1), i, nameEnd);
      if (end < 0) return -1;
      i = this.space(end);
      const c = t.charCodeAt(i);
      if (c === CLOSE_BRACE) return i + 1;
      if (c !== COMMA) return -1;
      i = this.space(i + 1);
    }
  }

  /**
   * Past the array at `i` (`text[i]` is `[`), or -1; each element's start and end go to
   * `elements` when given.
   */
  array(i: number, elements: ((start: number, end: number) => void) | undefined): number {
    const t = this.text;
    i = this.space(i + 1);
    if (t.charCodeAt(i) === CLOSE_BRACKET) return i + 1;
    for (;;) {
      const end = this.value(i);
      if (end < 0) return -1;
      elements?.(i, end);
      i = this.space(end);
      const c = t.charCodeAt(i);
      if (c === CLOSE_BRACKET) return i + 1;
      if (c !== COMMA) return -1;
      i = this.space(i + 1);
    }
  }

  /** Past the number at `i`, or -1: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  number(i: number): number {
    const t = this.text;
    if (t.charCodeAt(i) === MINUS) i++;
    if (t.charCodeAt(i) === ZERO) i++;
    else if (isDigit(t.charCodeAt(i))) i = this.digits(i);
    else return -1;
    if (t.charCodeAt(i) === DOT) {
      if (!isDigit(t.charCodeAt(i + 1))) return -1;
      i = this.digits(i + 1);
    }
    const e = t.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = t.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i++;
      if (!isDigit(t.charCodeAt(i))) return -1;
      i = this.digits(i);
    }
    return i;
  }

  private digits(i: number): number {
    while (isDigit(this.text.charCodeAt(i))) i++;
    return i;
  }

  /** A string with a backslash or a control character in reach, a character at a time. */
  private escapedString(i: number): number {
    const t = this.text;
    for (let j = i + 1; j < t.length; j++) {
      const c = t.charCodeAt(j);
      if (c === QUOTE) return j + 1;
      if (c < 0x20) return -1;
      if (c !== BACKSLASH) continue;
      const e = t.charCodeAt(j + 1);
      if (ESCAPED.has(e)) j++;
      else if (e === 0x75) {
        for (let k = j + 2; k < j + 6; k++) if (!isHex(t.charCodeAt(k))) return -1;
        j += 5;
      } else return -1;
    }
    return -1;
  }
}
