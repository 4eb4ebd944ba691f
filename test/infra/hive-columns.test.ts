import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { hiveColumns } from '../../infra/constructs/hive-columns.js';

describe('Function: hiveColumns', () => {
  it('maps JSON scalars to Hive types, integers to bigint', () => {
    const columns = hiveColumns(
      z.object({ Name: z.string(), Count: z.number().int(), Ratio: z.number(), On: z.boolean() }),
    );
    expect(columns).toEqual([
      { name: 'name', type: 'string' },
      { name: 'count', type: 'bigint' },
      { name: 'ratio', type: 'double' },
      { name: 'on', type: 'boolean' },
    ]);
  });

  it('keeps optional and nullable fields with the type of their value', () => {
    const columns = hiveColumns(
      z.object({ At: z.iso.datetime().nullable(), Group: z.object({ X: z.boolean() }).optional() }),
    );
    expect(columns).toEqual([
      { name: 'at', type: 'string' },
      { name: 'group', type: 'struct<x:boolean>' },
    ]);
  });

  it('nests structs and arrays', () => {
    const columns = hiveColumns(
      z.object({ Sites: z.array(z.object({ Key: z.string(), Tags: z.array(z.string()) })) }),
    );
    expect(columns).toEqual([
      { name: 'sites', type: 'array<struct<key:string,tags:array<string>>>' },
    ]);
  });

  it('reads a field of several scalar types as a string', () => {
    const columns = hiveColumns(z.object({ S: z.union([z.string(), z.number(), z.boolean()]) }));
    expect(columns).toEqual([{ name: 's', type: 'string' }]);
  });

  it('refuses a field that is sometimes an object and sometimes a scalar', () => {
    expect(() =>
      hiveColumns(z.object({ Odd: z.union([z.string(), z.object({ A: z.string() })]) })),
    ).toThrow(/\(root\)\.Odd mixes string, object/);
  });

  it('refuses two fields that differ only by case, which the SerDe could not tell apart', () => {
    expect(() =>
      hiveColumns(z.object({ Inner: z.object({ IPV4: z.string(), ipv4: z.string() }) })),
    ).toThrow(/\(root\)\.Inner has two fields named ipv4/);
  });

  it('refuses an object without known fields, which Hive cannot declare', () => {
    expect(() => hiveColumns(z.object({ Bag: z.looseObject({}) }))).toThrow(
      /\(root\)\.Bag has no known fields/,
    );
  });
});
