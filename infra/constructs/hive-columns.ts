import type * as glue from 'aws-cdk-lib/aws-glue';
import * as z from 'zod';

/** The slice of JSON Schema that zod emits for our record schemas. */
export interface JsonSchema {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
}

const SCALARS: Record<string, string> = {
  string: 'string',
  boolean: 'boolean',
  // Counts and byte sizes: some exceed a 32-bit int (TotalGarbageRemovalSize).
  integer: 'bigint',
  number: 'double',
};

/**
 * The Glue columns of an archived record, derived from the zod schema the client validates it
 * with (lib/'s are zod/mini schemas; classic ones give the same columns, as both go through
 * zod's core JSON Schema conversion), so the table cannot drift from what is written. Names are
 * lower case because Athena folds identifiers to lower case and the JSON SerDe matches keys
 * ignoring case; two fields differing only by case would land in one column, so they are
 * refused here.
 *
 * @example
 * hiveColumns(z.object({ Site: z.object({ TotalEndpoints: z.number().int() }) }));
 * // [{ name: 'site', type: 'struct<totalendpoints:bigint>' }]
 */
export function hiveColumns(schema: z.core.$ZodType): glue.CfnTable.ColumnProperty[] {
  return fields(recordJsonSchema(schema), '(root)').map(([name, type]) => ({ name, type }));
}

/**
 * The JSON Schema of an archived record's zod schema, as written: what the Glue columns here
 * and the local query's DuckDB columns (scripts/query/archive-columns.ts) are both walked from.
 */
export function recordJsonSchema(schema: z.core.$ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' }) as JsonSchema;
}

function fields(schema: JsonSchema, path: string): [name: string, type: string][] {
  const seen = new Set<string>();
  return Object.entries(schema.properties ?? {}).map(([key, value]) => {
    const name = key.toLowerCase();
    if (seen.has(name)) throw new Error(`hiveColumns: ${path} has two fields named ${name}.`);
    seen.add(name);
    return [name, hiveType(value, `${path}.${key}`)];
  });
}

/** Every non-null JSON type a schema allows, with its schema (`anyOf` flattened). */
export function jsonKinds(schema: JsonSchema): [kind: string, schema: JsonSchema][] {
  if (schema.anyOf) return schema.anyOf.flatMap(jsonKinds);
  return [schema.type ?? []]
    .flat()
    .filter((kind) => kind !== 'null')
    .map((kind) => [kind, schema]);
}

function hiveType(schema: JsonSchema, path: string): string {
  const allowed = jsonKinds(schema);
  const [first] = allowed;
  if (!first) throw new Error(`hiveColumns: ${path} has no JSON type.`);
  const [kind, inner] = first;
  if (allowed.length > 1) {
    // A value that is sometimes a string, sometimes a number (ScriptShieldStatus): the SerDe
    // reads any JSON scalar into a string column as its text.
    if (allowed.every(([k]) => k in SCALARS)) return 'string';
    throw new Error(`hiveColumns: ${path} mixes ${allowed.map(([k]) => k).join(', ')}.`);
  }
  if (kind === 'object') {
    const members = fields(inner, path).map(([name, type]) => `${name}:${type}`);
    if (members.length === 0) throw new Error(`hiveColumns: ${path} has no known fields.`);
    return `struct<${members.join(',')}>`;
  }
  if (kind === 'array') {
    if (!inner.items) throw new Error(`hiveColumns: ${path} has no item schema.`);
    return `array<${hiveType(inner.items, `${path}[]`)}>`;
  }
  const scalar = SCALARS[kind];
  if (!scalar) throw new Error(`hiveColumns: ${path} has the unsupported JSON type ${kind}.`);
  return scalar;
}
