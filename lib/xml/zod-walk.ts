import type * as z from '../zod.js';

/** The parts of a zod 4 definition the XML codec needs; read through `_zod.def`. */
interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  element?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
  options?: z.core.$ZodType[];
  in?: z.core.$ZodType;
  getter?: () => z.core.$ZodType;
}

function def(schema: z.core.$ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

export type Kind =
  | { kind: 'object'; shape: Record<string, z.core.$ZodType> }
  | { kind: 'array'; element: z.core.$ZodType }
  | { kind: 'number' | 'boolean' | 'string' | 'other' };

/**
 * Looks through wrappers (optional, nullable, default, pipe, lazy) to the schema's value kind and
 * whether null is allowed. XML carries only text, so this is how values get their types back.
 *
 * @example
 * describe(z.nullable(z.number().check(z.int()))); // { kind: 'number', nullable: true }
 */
export function describe(schema: z.core.$ZodType): Kind & { nullable: boolean } {
  let current = schema;
  let nullable = false;
  for (let i = 0; i < 20; i++) {
    const d = def(current);
    if (d.type === 'nullable') nullable = true;
    if ((d.type === 'optional' || d.type === 'nullable' || d.type === 'default') && d.innerType) {
      current = d.innerType;
      continue;
    }
    if (d.type === 'lazy' && d.getter) {
      current = d.getter();
      continue;
    }
    if (d.type === 'pipe' && d.in) {
      current = d.in;
      continue;
    }
    if (d.type === 'object' && d.shape) return { kind: 'object', shape: d.shape, nullable };
    if (d.type === 'array' && d.element) return { kind: 'array', element: d.element, nullable };
    if (d.type === 'number' || d.type === 'int') return { kind: 'number', nullable };
    if (d.type === 'boolean') return { kind: 'boolean', nullable };
    if (d.type === 'string') return { kind: 'string', nullable };
    if (d.type === 'union' && d.options) {
      const kinds = d.options.map((o) => describe(o));
      const hasNull =
        kinds.some((k) => k.nullable) || d.options.some((o) => def(o).type === 'null');
      const first = kinds.find((k) => k.kind !== 'other');
      return { ...(first ?? { kind: 'other' }), nullable: nullable || hasNull };
    }
    return { kind: 'other', nullable };
  }
  return { kind: 'other', nullable };
}
