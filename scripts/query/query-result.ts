import { type DuckDBResultReader, DuckDBTypeId } from '@duckdb/node-api';

/** One column of a result: its name as the query gave it, its SQL type, how to align it. */
export interface ResultColumn {
  readonly name: string;
  /** The SQL type as DuckDB names it (`BIGINT`, `DECIMAL(18,3)`, `STRUCT(…)`). */
  readonly type: string;
  /** Right-aligned in a table; when not given, a column whose values are all numbers is. */
  readonly numeric?: boolean;
  /** The key of its values in a JSON line: the name, with a suffix when a name repeats. */
  readonly key?: string;
}

/**
 * A query's rows as JSON-ready values: what DuckDB's JSON conversion gives (64- and 128-bit
 * integers and decimals as exact decimal strings, timestamps as text, structs as objects), so
 * no formatter needs to know DuckDB's value classes.
 */
export interface QueryResult {
  readonly columns: readonly ResultColumn[];
  /** Each row's values in column order. */
  readonly rows: readonly (readonly unknown[])[];
}

const NUMERIC = new Set<DuckDBTypeId>([
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.UHUGEINT,
  DuckDBTypeId.FLOAT,
  DuckDBTypeId.DOUBLE,
  DuckDBTypeId.DECIMAL,
  DuckDBTypeId.BIGNUM,
]);

/** The result of a reader that has read all its rows. */
export function queryResult(reader: DuckDBResultReader): QueryResult {
  const keys = reader.deduplicatedColumnNames();
  const columns = reader.columnNames().map((name, i) => ({
    name,
    key: keys[i] ?? name,
    type: reader.columnType(i).toString(),
    numeric: NUMERIC.has(reader.columnTypeId(i)),
  }));
  return { columns, rows: reader.getRowsJson() as unknown[][] };
}
