import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NdjsonEncoder } from '../../lib/aws/ndjson-encoder.js';

const lines = (bytes: Buffer) => bytes.toString('utf8').split('\n');
const texts = (records: unknown[]) => records.map((r) => JSON.stringify(r));

describe('Class: NdjsonEncoder', () => {
  it('writes one JSON document a line, each ending in a newline', () => {
    const encoder = new NdjsonEncoder(16);
    const out = encoder.encodeTexts(texts([{ a: 1 }, { b: 'x' }, null, [1, 2]]));
    expect(out.toString('utf8')).toBe('{"a":1}\n{"b":"x"}\nnull\n[1,2]\n');
  });

  it('grows past its starting size without losing bytes, multi-byte characters included', () => {
    // Prepare: records far larger than the 8-byte buffer, with 2-, 3- and 4-byte UTF-8.
    const records = Array.from({ length: 50 }, (_, i) => ({ i, name: `é€😀${'z'.repeat(i * 7)}` }));
    const encoder = new NdjsonEncoder(8);
    // Act
    const out = encoder.encodeTexts(texts(records));
    // Assess
    expect(
      lines(out)
        .slice(0, -1)
        .map((l) => JSON.parse(l)),
    ).toEqual(records);
    expect(out.length).toBe(
      Buffer.byteLength(records.map((r) => `${JSON.stringify(r)}\n`).join('')),
    );
  });

  it('reuses one buffer: each batch is written over the previous one', () => {
    const encoder = new NdjsonEncoder(64);
    const first = encoder.encodeTexts(['{"page":1}']);
    expect(first.toString()).toBe('{"page":1}\n');
    const second = encoder.encodeTexts(['{"page":2}']);
    expect(second.buffer).toBe(first.buffer);
    expect(first.toString()).toBe('{"page":2}\n');
  });

  it('encodes any JSON batch exactly as JSON.stringify would, line by line', () => {
    const encoder = new NdjsonEncoder(32);
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 40 }), (records) => {
        const expected = records.map((r) => `${JSON.stringify(r)}\n`).join('');
        expect(encoder.encodeTexts(texts(records)).toString('utf8')).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('encodes an empty batch as no bytes', () => {
    expect(new NdjsonEncoder().encodeTexts([]).length).toBe(0);
  });

  it('writes texts already serialised as they are, a line each', () => {
    const encoder = new NdjsonEncoder(4);
    const out = encoder.encodeTexts(['{"Id":12345678901234567890}', '1.50', '"é€😀"']);
    expect(out.toString('utf8')).toBe('{"Id":12345678901234567890}\n1.50\n"é€😀"\n');
  });

  it('puts a text the service spread over lines on one line, its values unchanged', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 20 }), (records) => {
        const encoder = new NdjsonEncoder(16);
        const texts = records.map((r, i) =>
          JSON.stringify(r, null, i % 2 === 0 ? 2 : undefined).replace(/\n/g, '\r\n'),
        );
        const written = lines(encoder.encodeTexts(texts));
        expect(written.pop()).toBe('');
        // As JSON has it (-0 is written 0).
        expect(written.map((l) => JSON.parse(l))).toEqual(texts.map((t) => JSON.parse(t)));
      }),
      { numRuns: 200 },
    );
  });
});
