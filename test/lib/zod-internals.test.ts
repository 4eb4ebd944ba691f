import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import * as mini from 'zod/mini';
import { $ZodObjectJIT } from 'zod/v4/core';
import * as z from '../../lib/zod.js';

// lib/zod.ts builds its object schemas on one zod internal, $ZodObjectJIT (why: its header).
// zod is pinned to an exact version for it; these tests fail when an upgrade changes it.
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  dependencies: Record<string, string>;
};
const installed = JSON.parse(readFileSync('node_modules/zod/package.json', 'utf8')) as {
  version: string;
};

const realFunction = globalThis.Function;
afterEach(() => {
  globalThis.Function = realFunction;
});

/** Counts parsers compiled with `new Function` while `act` runs. */
function compiledDuring(act: () => void): number {
  let compiled = 0;
  globalThis.Function = new Proxy(realFunction, {
    construct(target, args) {
      compiled++;
      return Reflect.construct(target, args);
    },
  });
  try {
    act();
  } finally {
    globalThis.Function = realFunction;
  }
  return compiled;
}

const Entry = { EndpointId: z.string(), Count: z.number(), Note: z.optional(z.string()) };

describe('lib/zod: the one zod internal it uses', () => {
  it('runs on the exact zod version the package pins', () => {
    expect(pkg.dependencies.zod).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed.version).toBe(pkg.dependencies.zod);
  });

  it("compiles an object's parser on its first parse, not when the schema is built", () => {
    const Schema = z.looseObject({ ...Entry });
    expect(compiledDuring(() => z.looseObject({ ...Entry }))).toBe(0);
    expect(compiledDuring(() => z.parse(Schema, { EndpointId: 'a', Count: 1 }))).toBeGreaterThan(0);
    expect(Schema).toBeInstanceOf($ZodObjectJIT);
    expect(Schema).toBeInstanceOf(mini.ZodMiniObject);
    expect(Object.keys(Schema.shape)).toEqual(['EndpointId', 'Count', 'Note']);
  });

  it("answers what zod/mini's own objects answer, data and issues alike", () => {
    const pairs = [
      [z.object(Entry), mini.object(Entry)],
      [z.strictObject(Entry), mini.strictObject(Entry)],
      [z.looseObject(Entry), mini.looseObject(Entry)],
    ] as const;
    const value = fc.oneof(fc.string(), fc.integer(), fc.constant(undefined), fc.constant(null));
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('EndpointId', 'Count', 'Note', 'Extra'), value),
        (input) => {
          for (const [ours, theirs] of pairs) {
            const [a, b] = [z.safeParse(ours, input), mini.safeParse(theirs, input)];
            expect(a.success).toBe(b.success);
            expect(a.data).toEqual(b.data);
            expect(a.error?.issues).toEqual(b.error?.issues);
          }
        },
      ),
    );
  });
});
