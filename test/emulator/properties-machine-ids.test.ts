import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { machineId, parseMachineId } from '../../emulator/data/ids.js';
import { hash, hash4 } from '../../emulator/data/random.js';

const seed = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const gsmIndex = fc.integer({ min: 0, max: 254 });
const index = fc.oneof(fc.nat(1_000_000), fc.integer({ min: 0, max: 2 ** 32 - 1 }));
const SHAPE = /^[0-9A-F]{16}:::[0-9A-F]{16}:::[0-9A-F]{10}$/;

describe('Properties: MachineID format and parse', () => {
  it('parses every MachineID it formats back to its GSM and index, in any letter case', () => {
    fc.assert(
      fc.property(seed, gsmIndex, index, fc.boolean(), (s, g, i, lower) => {
        const id = machineId(s, g, i);
        expect(id).toMatch(SHAPE);
        const text = lower ? id.toLowerCase() : id;
        expect(parseMachineId(s, text)).toEqual({ gsmIndex: g, index: i });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a MachineID whose hash segments were altered, or one of another seed', () => {
    fc.assert(
      fc.property(seed, gsmIndex, index, fc.nat(31), fc.nat(15), (s, g, i, at, digit) => {
        const id = machineId(s, g, i);
        // Positions 0–15 and 19–34 are the two hash segments.
        const pos = at < 16 ? at : at + 3;
        const replacement = digit.toString(16).toUpperCase();
        fc.pre(id[pos] !== replacement);
        const forged = id.slice(0, pos) + replacement + id.slice(pos + 1);
        expect(parseMachineId(s, forged)).toBeUndefined();
        expect(parseMachineId(s + 1, id)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});

describe('Properties: hash4', () => {
  it('equals hash of the same four inputs, for any numbers', () => {
    const part = fc.oneof(
      fc.integer(),
      fc.integer({ min: 0, max: 2 ** 32 - 1 }),
      fc.maxSafeInteger(),
      fc.double(),
    );
    fc.assert(
      fc.property(part, part, part, part, (a, b, c, d) => {
        expect(hash4(a, b, c, d)).toBe(hash(a, b, c, d));
      }),
      { numRuns: 500 },
    );
  });
});
