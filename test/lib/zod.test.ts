import { describe, expect, it } from 'vitest';
import * as z from '../../lib/zod.js';

// This file imports no classic zod, which would set English messages on its own.
describe('lib/zod (zod/mini for the bundled code)', () => {
  it('words issues in English, as classic zod does', () => {
    const result = z.safeParse(z.object({ Name: z.string().check(z.minLength(3)) }), {
      Name: 'ab',
    });
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['Name'],
        message: 'Too small: expected string to have >=3 characters',
      }),
    ]);
    expect(z.safeParse(z.number(), 'x').error?.issues[0]?.message).toBe(
      'Invalid input: expected number, received string',
    );
  });

  it('throws from parse an Error named ZodError whose message lists the issues', () => {
    const Schema = z.strictObject({ day: z.string().check(z.regex(/^\d{4}$/, 'must be a year')) });
    let thrown: unknown;
    try {
      z.parse(Schema, { day: '26' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).name).toBe('ZodError');
    expect(JSON.parse((thrown as Error).message)).toEqual([
      expect.objectContaining({ code: 'invalid_format', path: ['day'], message: 'must be a year' }),
    ]);
  });

  it('answers from safeParse a ZodError too, kept as the cause of schema errors', () => {
    const result = z.safeParse(z.boolean(), 'yes');
    expect(result.success).toBe(false);
    expect(result.error).toBeInstanceOf(Error);
    expect(result.error?.name).toBe('ZodError');
  });

  it('answers the parsed value when it is valid', () => {
    const Schema = z.object({ n: z._default(z.coerce.number().check(z.int()), 5) });
    expect(z.parse(Schema, { n: '7' })).toEqual({ n: 7 });
    expect(z.safeParse(Schema, {})).toEqual({ success: true, data: { n: 5 } });
  });
});
