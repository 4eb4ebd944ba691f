import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWithElementTexts } from '../../lib/paging/index.js';
import { spacedJson } from './support/spaced-json.js';

const M = 'QueryResults';

/** The two promises: the value is JSON.parse's, and any texts are the elements' own. */
function expectFaithful(text: string) {
  const { value, elementTexts } = parseWithElementTexts(text, M);
  const parsed = JSON.parse(text) as Record<string, unknown>;
  expect(value).toEqual(parsed);
  expect(Object.keys(value as object)).toEqual(Object.keys(parsed));
  if (elementTexts) expect(elementTexts.map((t) => JSON.parse(t))).toEqual(parsed[M]);
  return elementTexts;
}

/** Objects whose strings and nested values hold the split's own markers. */
const trickyEntry = fc.dictionary(
  fc.constantFrom('a', 'b', 'c', 'QueryResults'),
  fc.oneof(
    fc.constantFrom('},{', '}]', '"},{"', '\\', '}\\",{', ''),
    fc.array(fc.dictionary(fc.constantFrom('x', 'y'), fc.integer()), { maxLength: 3 }),
    fc.jsonValue({ maxDepth: 2 }),
  ),
  { maxKeys: 3 },
);

describe('Function: parseWithElementTexts', () => {
  it('splits compact pages of objects: each text as written, the value as JSON.parse gives', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 })), { maxLength: 12 }),
        fc.dictionary(fc.constantFrom('Count', 'ContinuationToken', 'x'), fc.jsonValue()),
        fc.boolean(),
        (elements, others, first) => {
          const envelope = first ? { [M]: elements, ...others } : { ...others, [M]: elements };
          const text = JSON.stringify(envelope);
          const texts = expectFaithful(text);
          // Unless the elements hold the split's markers, or a member after them holds "},{",
          // the split is the array's and the texts come with the parse.
          const marked = elements.some((e) => /\},\{|\}\]/.test(JSON.stringify(e)));
          if (!marked && !JSON.stringify(others).includes('},{'))
            expect(texts).toEqual(elements.map((e) => JSON.stringify(e)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('never answers a wrong text when strings or nested arrays hold "},{" or "}]"', () => {
    fc.assert(
      fc.property(fc.array(trickyEntry, { minLength: 1, maxLength: 8 }), (elements) => {
        expectFaithful(JSON.stringify({ [M]: elements, Count: elements.length }));
      }),
      { numRuns: 500 },
    );
  });

  it('parses pages written any other way whole, to the same value', () => {
    const gaps = fc.array(fc.constantFrom('', ' ', '\n', '\r\n', '\t'), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 10 }), gaps, (elements, spacing) => {
        expectFaithful(spacedJson({ Count: elements.length, [M]: elements, Next: null }, spacing));
      }),
      { numRuns: 400 },
    );
  });

  it('defeats the counterexample that sank a plain "},{" search', () => {
    // Prepare: as many "},{" as entries less one, but inside a nested array, with spaced entries.
    const text = '{"QueryResults":[{"a":[{"x":1},{"y":2}]}, {"b":1}]}';
    // Act
    const { value, elementTexts } = parseWithElementTexts(text, M);
    // Assess
    expect(value).toEqual(JSON.parse(text));
    expect(elementTexts).toBeUndefined();
  });

  it('gives the member JSON.parse keeps when it is named twice, however spelt', () => {
    for (const text of [
      '{"QueryResults":[{"a":1},{"b":2}],"QueryResults":[{"c":3},{"d":4}]}',
      '{"QueryResults":[{"a":1},{"b":2}],"Query\\u0052esults":[{"c":3},{"d":4}]}',
      '{"Query\\u0052esults":[{"a":1},{"b":2}],"QueryResults":[{"c":3},{"d":4}]}',
      '{"QueryResults":null,"QueryResults":[{"c":3},{"d":4}]}',
      '{"QueryResults":[{"c":3},{"d":4}],"QueryResults":null}',
      '{"meta":{"QueryResults":[{"a":1},{"b":2}]},"QueryResults":[]}',
      '{"QueryResults": [], "meta":{"QueryResults":[{"a":1},{"b":2}]}}',
    ])
      expectFaithful(text);
  });

  it('answers the elements of an empty array, and keeps the envelope whatever surrounds it', () => {
    expect(parseWithElementTexts('{"QueryResults":[ ],"Count":0}', M)).toEqual({
      value: { QueryResults: [], Count: 0 },
      elementTexts: [],
    });
    const text = '{"Count":2,"QueryResults":[{"a":1},{"b":"x"}],"Next":{"c":[1,{"d":"}]"}]}}';
    expect(expectFaithful(text)).toEqual(['{"a":1}', '{"b":"x"}']);
  });

  it('sets the member as JSON.parse does, even one named "__proto__"', () => {
    const text = '{"__proto__":[{"a":1},{"b":2}],"z":1}';
    const { value, elementTexts } = parseWithElementTexts(text, '__proto__');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')).toEqual(
      Object.getOwnPropertyDescriptor(JSON.parse(text), '__proto__'),
    );
    expect(elementTexts).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('throws what JSON.parse throws for text that is not JSON', () => {
    for (const text of [
      '',
      '{"QueryResults":[{"a":1},{"b":2}]',
      '{"QueryResults":[{"a":1},{"b":2}]}x',
      '{"QueryResults":[{"a":1},{"b":}]}',
      '{"QueryResults":[{"a":1},{"b":2}],}',
      '<QueryResults/>',
    ]) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      expect(() => parseWithElementTexts(text, M), text).toThrow(SyntaxError);
    }
  });
});
