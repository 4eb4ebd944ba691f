/** A table or view of the local archive and its top-level columns, in order. */
export interface CatalogTable {
  /** With its schema: `skywatch_archive.agent_status`. */
  readonly name: string;
  readonly columns: readonly string[];
}

/** The query names a table the archive does not have. */
export class MissingTableError extends Error {
  constructor(
    readonly table: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'MissingTableError';
  }
}

/** The query names a column that none of the archive tables it reads has. */
export class MissingColumnError extends Error {
  constructor(
    readonly column: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'MissingColumnError';
  }
}

const bare = (name: string) => name.slice(name.lastIndexOf('.') + 1);
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function missingTable(
  reported: string,
  sql: string,
  catalog: readonly CatalogTable[],
  cause: Error,
) {
  // DuckDB names `skywatch_archive.nope` as `nope`: say it as the query did.
  const written = new RegExp(`[\\w"]+\\.${literal(reported)}\\b`, 'i').exec(sql)?.[0];
  const name =
    written && !catalog.some((t) => t.name === written.toLowerCase()) ? written : reported;
  const all = catalog.map((t) => t.name).join(', ');
  const same = catalog.find((t) => bare(t.name) === bare(name).toLowerCase());
  const hint =
    same && same.name !== name.toLowerCase()
      ? ` name it with its schema, ${same.name}, as Athena does; the archive's tables are ${all}`
      : ` the archive's tables are ${all}`;
  return new MissingTableError(name, `no table ${name}:${hint}`, { cause });
}

function missingColumn(
  column: string,
  sql: string,
  catalog: readonly CatalogTable[],
  cause: Error,
): Error {
  const read = catalog.filter((t) => new RegExp(`${literal(t.name)}\\b`, 'i').test(sql));
  if (read.length === 0) return cause;
  const has = (t: CatalogTable) => t.columns.some((c) => c === column.toLowerCase());
  const elsewhere = catalog.filter((t) => !read.includes(t) && has(t)).map((t) => t.name);
  const where = read.map((t) => t.name).join(' or ');
  const listed =
    read.length === 1
      ? `its columns: ${read[0]?.columns.join(', ')}`
      : `their columns: ${read.map((t) => `${t.name}: ${t.columns.join(', ')}`).join('; ')}`;
  const hint = elsewhere.length > 0 ? `; ${column} is a column of ${elsewhere.join(', ')}` : '';
  return new MissingColumnError(column, `no column ${column} in ${where}; ${listed}${hint}`, {
    cause,
  });
}

/**
 * DuckDB's catalog and binder errors for a table or column that is not there, as a message
 * that lists what is; any other error as it came.
 *
 * @example
 * explainQueryError(error, 'SELECT SiteName FROM skywatch_archive.agent_status', catalog);
 * // MissingColumnError: no column SiteName in skywatch_archive.agent_status; its columns: …
 */
export function explainQueryError(
  error: unknown,
  sql: string,
  catalog: readonly CatalogTable[],
): unknown {
  if (!(error instanceof Error)) return error;
  const table = /^Catalog Error: Table with name "?([^"!\s]+)"? does not exist/.exec(error.message);
  if (table?.[1]) return missingTable(table[1], sql, catalog, error);
  const column =
    /^Binder Error: Referenced column "([^"]+)" not found/.exec(error.message) ??
    /^Binder Error: .* does not have a column named "([^"]+)"/.exec(error.message);
  if (column?.[1]) return missingColumn(column[1], sql, catalog, error);
  return error;
}
