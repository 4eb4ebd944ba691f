import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { ARCHIVE_DATASETS, type ArchiveDataset } from '../../infra/constructs/archive-datasets.js';
import { duckColumns } from './archive-columns.js';
import { ARCHIVE_VIEWS } from './archive-views.js';
import { type CatalogTable, explainQueryError } from './query-errors.js';
import { type QueryResult, queryResult } from './query-result.js';

/** The Glue database of the default stack (`Skywatch`): queries name it as they do in Athena. */
export const ARCHIVE_SCHEMA = 'skywatch_archive';

/**
 * Athena (Trino) functions the documented queries may use that DuckDB lacks or names
 * otherwise, as macros, so one text runs on both engines.
 */
const TRINO_MACROS = [
  'CREATE MACRO from_iso8601_timestamp(s) AS CAST(s AS TIMESTAMPTZ)',
  'CREATE MACRO cardinality(a) AS len(a)',
  // Trino's is approximate; DuckDB's exact quantile answers the same on a laptop's archive.
  'CREATE MACRO approx_percentile(x, p) AS quantile_cont(x, p)',
];

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Partition columns read from the key, as Athena's projection reads them. */
function partitionColumns(dataset: ArchiveDataset): string[] {
  const segment = (name: string, column: string) =>
    `regexp_extract(filename, '/${name}=([^/]+)/', 1) AS "${column}"`;
  return [
    segment('gsm', 'gsm_key'),
    segment('date', 'date'),
    ...(dataset.reportTypes ? [segment('type', 'type')] : []),
  ];
}

function hasObjects(folder: string): boolean {
  if (!existsSync(folder)) return false;
  return readdirSync(folder, { recursive: true }).some((f) => String(f).endsWith('.ndjson.gz'));
}

/** The view of one dataset over `<root>/reports/<prefix>/`; empty when nothing is archived. */
export function datasetView(root: string, dataset: ArchiveDataset): string {
  const columns = duckColumns(dataset);
  const name = `${ARCHIVE_SCHEMA}.${dataset.table}`;
  const folder = join(resolve(root), 'reports', dataset.prefix);
  if (!hasObjects(folder)) {
    const empty = [
      ...columns.map((c) => `CAST(NULL AS ${c.type}) AS "${c.name}"`),
      ...['gsm_key', 'date', ...(dataset.reportTypes ? ['type'] : [])].map(
        (p) => `CAST(NULL AS VARCHAR) AS "${p}"`,
      ),
    ];
    return `CREATE VIEW ${name} AS SELECT ${empty.join(', ')} WHERE false`;
  }
  const spec = columns.map((c) => `${sqlText(c.key)}: ${sqlText(c.type)}`).join(', ');
  // Hive partitioning off: the key's `gsm=` segment would clash with gsm_usage's `GSM` field,
  // and the catalog names the partition `gsm_key`.
  const source = `read_json(${sqlText(`${folder}/**/*.ndjson.gz`)}, columns = {${spec}}, format = 'newline_delimited', compression = 'gzip', filename = true, hive_partitioning = false)`;
  const select = [...columns.map((c) => `"${c.key}" AS "${c.name}"`), ...partitionColumns(dataset)];
  return `CREATE VIEW ${name} AS SELECT ${select.join(', ')} FROM ${source}`;
}

/**
 * An in-memory DuckDB over a local copy of the archive bucket (`<root>/reports/…`, the keys of
 * the bucket as paths), with the Glue database's schema and tables as views.
 *
 * @example
 * const db = await openArchive('.skywatch/archive');
 * const rows = await db.query('SELECT count(*) AS n FROM skywatch_archive.site_usage');
 */
export async function openArchive(root: string) {
  const instance = await DuckDBInstance.create(':memory:');
  const connection: DuckDBConnection = await instance.connect();
  await connection.run(`CREATE SCHEMA ${ARCHIVE_SCHEMA}`);
  for (const macro of TRINO_MACROS) await connection.run(macro);
  for (const dataset of ARCHIVE_DATASETS) await connection.run(datasetView(root, dataset));
  for (const view of ARCHIVE_VIEWS) await connection.run(view);

  const catalog = async (): Promise<CatalogTable[]> => {
    const reader = await connection.runAndReadAll(
      `SELECT table_name, list(column_name ORDER BY column_index) AS columns FROM duckdb_columns()
       WHERE schema_name = '${ARCHIVE_SCHEMA}' GROUP BY table_name ORDER BY table_name`,
    );
    return (reader.getRowObjectsJson() as { table_name: string; columns: string[] }[]).map((t) => ({
      name: `${ARCHIVE_SCHEMA}.${t.table_name}`,
      columns: t.columns,
    }));
  };
  const read = async (sql: string) => {
    try {
      return await connection.runAndReadAll(sql);
    } catch (error) {
      throw explainQueryError(error, sql, await catalog());
    }
  };
  return {
    /** Rows as JSON-ready objects (big integers as strings, as DuckDB gives them). */
    async query(sql: string): Promise<Record<string, unknown>[]> {
      return (await read(sql)).getRowObjectsJson() as Record<string, unknown>[];
    },
    /** Columns with their types, and rows, for the output formats of `npm run query`. */
    async result(sql: string): Promise<QueryResult> {
      return queryResult(await read(sql));
    },
    /** The schema's tables and views with their columns. */
    catalog,
    close(): void {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
export type ArchiveDatabase = Awaited<ReturnType<typeof openArchive>>;
