import type { ArchiveDataset } from '../../infra/constructs/archive-datasets.js';
import {
  type JsonSchema,
  jsonKinds,
  recordJsonSchema,
} from '../../infra/constructs/hive-columns.js';

/** One top-level column: the JSON key it reads, its (lower-case) catalog name, its DuckDB type. */
export interface DuckColumn {
  key: string;
  name: string;
  type: string;
}

const SCALARS: Record<string, string> = {
  string: 'VARCHAR',
  boolean: 'BOOLEAN',
  integer: 'BIGINT',
  number: 'DOUBLE',
};

/**
 * DuckDB columns of an archived dataset, walked from the same zod schema as the Glue columns
 * (infra/constructs/hive-columns.ts) and with the same mapping. DuckDB's JSON reader matches
 * keys by exact case, so struct fields keep the service's PascalCase (DuckDB resolves
 * `basicinfo.activethreats` ignoring case, as Athena does); top-level columns are renamed to
 * the catalog's lower-case names.
 */
export function duckColumns(dataset: ArchiveDataset): DuckColumn[] {
  const root = recordJsonSchema(dataset.record);
  return Object.entries(root.properties ?? {}).map(([key, value]) => ({
    key,
    name: key.toLowerCase(),
    type: duckType(value, key),
  }));
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

function duckType(schema: JsonSchema, path: string): string {
  const allowed = jsonKinds(schema);
  const [first] = allowed;
  if (!first) throw new Error(`duckColumns: ${path} has no JSON type.`);
  const [kind, inner] = first;
  // Sometimes a string, sometimes a number: read as text, like the Hive SerDe does.
  if (allowed.length > 1) return 'VARCHAR';
  if (kind === 'object') {
    const members = Object.entries(inner.properties ?? {}).map(
      ([key, value]) => `${quote(key)} ${duckType(value, `${path}.${key}`)}`,
    );
    return `STRUCT(${members.join(', ')})`;
  }
  if (kind === 'array') {
    if (!inner.items) throw new Error(`duckColumns: ${path} has no item schema.`);
    return `${duckType(inner.items, `${path}[]`)}[]`;
  }
  const scalar = SCALARS[kind];
  if (!scalar) throw new Error(`duckColumns: ${path} has the unsupported JSON type ${kind}.`);
  return scalar;
}
