import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayMemberTexts, entryTextsOf, readArrayMember } from '../../lib/paging/index.js';
import { spacedJson } from './support/spaced-json.js';

describe('Function: arrayMemberTexts', () => {
  it('answers each element exactly as written, whatever its strings hold', () => {
    // Prepare: strings with brackets, braces, commas, escaped quotes and trailing backslashes.
    const body =
      '{"Count":4,"QueryResults":[{"a":"x],{\\"y"},{"b":["}",{"c":"\\\\"}]}, 12 ,"s\\"]"],"Next":null}';
    // Act
    const texts = arrayMemberTexts(body, 'QueryResults');
    // Assess
    expect(texts).toEqual(['{"a":"x],{\\"y"}', '{"b":["}",{"c":"\\\\"}]}', '12', '"s\\"]"']);
    expect(texts?.map((t) => JSON.parse(t))).toEqual(JSON.parse(body).QueryResults);
  });

  it('finds the member after others of every kind, and keeps the last one named twice', () => {
    const body =
      '{ "x":{"QueryResults":[9]}, "y":[1,[2]], "z":"QueryResults", "n":-1.5e3, "t":true,' +
      ' "QueryResults":[1], "QueryResults" : [ 2 , 3 ] }';
    expect(arrayMemberTexts(body, 'QueryResults')).toEqual(['2', '3']);
    expect(JSON.parse(body).QueryResults).toEqual([2, 3]);
  });

  it('knows a member however its name is spelt, as JSON.parse does', () => {
    // Prepare: the later member, which JSON.parse keeps, spells its name with an escape.
    const body = '{"QueryResults":[1],"Query\\u0052esults":[2]}';
    // Act
    const texts = arrayMemberTexts(body, 'QueryResults');
    // Assess
    expect(JSON.parse(body).QueryResults).toEqual([2]);
    expect(texts).toEqual(['2']);
  });

  it('answers an empty list for an empty array', () => {
    expect(arrayMemberTexts('{"QueryResults":[ ]}', 'QueryResults')).toEqual([]);
  });

  it('answers undefined when there is no such array to slice', () => {
    for (const body of [
      '{"Count":0}',
      '{}',
      '{"QueryResults":null}',
      '{"QueryResults":{"a":1}}',
      '[{"QueryResults":[1]}]',
      '<QueryResults><a/></QueryResults>',
      '',
    ])
      expect(arrayMemberTexts(body, 'QueryResults'), body).toBeUndefined();
  });

  it('slices any JSON array, spaced any way, into texts that parse to its elements', () => {
    const gaps = fc.array(fc.constantFrom('', ' ', '\n', '\r\n', '\t', '  \n  '), {
      minLength: 1,
      maxLength: 8,
    });
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 12 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
        fc.boolean(),
        gaps,
        (elements, others, first, spacing) => {
          const { QueryResults: _dropped, ...rest } = others;
          const envelope = first
            ? { QueryResults: elements, ...rest }
            : { ...rest, QueryResults: elements };
          const body = spacedJson(envelope, spacing);
          const texts = arrayMemberTexts(body, 'QueryResults');
          expect(texts?.map((t) => JSON.parse(t))).toEqual(JSON.parse(body).QueryResults);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('answers the same texts JSON.stringify would for compact JSON, unicode included', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ stringUnit: 'binary' }), { maxLength: 10 }), (els) => {
        const body = JSON.stringify({ Count: els.length, QueryResults: els });
        expect(arrayMemberTexts(body, 'QueryResults')).toEqual(els.map((e) => JSON.stringify(e)));
      }),
      { numRuns: 300 },
    );
  });
});

/** Whether JSON.parse accepts `text`. */
function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** `text` with `edit` applied at index `at`: a likely near miss of JSON. */
function mutated(text: string, at: number, edit: { cut: number; insert: string }): string {
  return text.slice(0, at) + edit.insert + text.slice(at + edit.cut);
}

describe('Function: readArrayMember', () => {
  it('parses the other members and slices the array, as JSON.parse reads the text', () => {
    const body = '{"Count":2,"QueryResults":[{"a":1}, {"b":[2]}],"Next":{"at":"\\u00e9"}}';
    expect(readArrayMember(body, 'QueryResults')).toEqual({
      others: { Count: 2, Next: { at: 'é' } },
      texts: ['{"a":1}', '{"b":[2]}'],
    });
  });

  it('keeps a member named __proto__ as an own property, as JSON.parse does', () => {
    const read = readArrayMember('{"__proto__":{"polluted":1},"QueryResults":[]}', 'QueryResults');
    expect(Object.hasOwn(read?.others ?? {}, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(read?.others)).toBe(Object.prototype);
  });

  it('refuses every text JSON.parse refuses: near misses of a page', () => {
    // Prepare: a page with every kind of value, then cuts, insertions and swaps anywhere in it.
    const page = JSON.stringify({
      Count: 3,
      QueryResults: [
        { a: 'x\\"y', b: [1, -2.5e-3, 0, true, false, null], c: { d: 'é\u0001' } },
        'plain',
        -0.5,
      ],
      ContinuationToken: null,
    });
    const edits = fc.record({
      cut: fc.integer({ min: 0, max: 3 }),
      insert: fc.constantFrom(
        '',
        ',',
        ':',
        '"',
        '\\',
        '\\u12',
        '\\x',
        '\n',
        '\u0001',
        '{',
        '}',
        '[',
        ']',
        '0',
        '01',
        '-',
        '.',
        'e',
        '+',
        'tru',
        'nul',
        ' ',
        '\t',
        '"a":',
        ',]',
        ',}',
        'NaN',
        "'",
      ),
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: page.length }), edits, (at, edit) => {
        const text = mutated(page, at, edit);
        const read = readArrayMember(text, 'QueryResults');
        // Accepting what JSON.parse refuses would archive a broken line; the reverse costs
        // a fallback to JSON.parse only.
        if (!parses(text)) expect(read, text).toBeUndefined();
        else if (read)
          expect(read.texts.map((t) => JSON.parse(t))).toEqual(JSON.parse(text).QueryResults);
      }),
      { numRuns: 3000 },
    );
  });

  it('accepts what JSON.parse accepts, for any object holding the array', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ stringUnit: 'binary' }), { maxLength: 8 }),
        fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
        (elements, others) => {
          const { QueryResults: _dropped, ...rest } = others;
          const body = JSON.stringify({ ...rest, QueryResults: elements }, null, 1);
          const read = readArrayMember(body, 'QueryResults');
          expect(read?.texts.map((t) => JSON.parse(t))).toEqual(
            elements.map((e) => JSON.parse(JSON.stringify(e))),
          );
          expect(read?.others).toEqual(JSON.parse(JSON.stringify(rest)));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('leaves nesting deeper than the stack to JSON.parse', () => {
    const deep = `{"QueryResults":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`;
    expect(readArrayMember(deep, 'QueryResults')).toBeUndefined();
    expect(readArrayMember('{"QueryResults":[[[[1]]]]}', 'QueryResults')?.texts).toEqual([
      '[[[1]]]',
    ]);
  });

  it('refuses arbitrary text JSON.parse refuses', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'{}[]",:0123456789-.eE+ tfrueanl\\u') }),
        (tail) => {
          const text = `{"QueryResults":[${tail}`;
          if (!parses(text)) expect(readArrayMember(text, 'QueryResults'), text).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('Function: entryTextsOf', () => {
  it('keeps the service text, so number formats and large integers survive', () => {
    const body = '{"QueryResults":[{"Id":12345678901234567890,"Score":1.50}]}';
    const entries = JSON.parse(body).QueryResults;
    expect(entryTextsOf(body, 'QueryResults', entries)).toEqual([
      '{"Id":12345678901234567890,"Score":1.50}',
    ]);
  });

  it('serialises the validated entries when the body does not slice into as many', () => {
    const entries = [{ a: 1 }, { b: 2 }];
    expect(entryTextsOf('<xml/>', 'QueryResults', entries)).toEqual(['{"a":1}', '{"b":2}']);
    expect(entryTextsOf('{"QueryResults":[{"a":1}]}', 'QueryResults', entries)).toEqual([
      '{"a":1}',
      '{"b":2}',
    ]);
  });
});
