import type { QueryResult } from './query-result.js';
import { renderTable, type TableOptions } from './render-table.js';

export type OutputFormat = 'table' | 'csv' | 'json';

const bigintAsText = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value;

/** RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled. */
function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text =
    typeof value === 'string'
      ? value
      : typeof value === 'object' && !(value instanceof Date)
        ? JSON.stringify(value, bigintAsText)
        : String(value instanceof Date ? value.toISOString() : value);
  // An empty string is quoted so that it differs from NULL, as DuckDB's own CSV writer does.
  return text === '' || /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A header line and a line a row, fields quoted as RFC 4180 asks, lines ended by `\n` (as
 * DuckDB's `COPY … (FORMAT csv)` ends them); NULL is an empty field, structs and lists JSON.
 */
export function renderCsv(result: QueryResult): string {
  const lines = [
    result.columns.map((c) => csvField(c.name)),
    ...result.rows.map((r) => result.columns.map((_, i) => csvField(r[i]))),
  ];
  return lines.map((fields) => `${fields.join(',')}\n`).join('');
}

/** One JSON object a row (JSON lines), keyed by column name; 64-bit integers as strings. */
export function renderJsonLines(result: QueryResult): string {
  return result.rows
    .map((row) => {
      const entries = result.columns.map((c, i) => [c.key ?? c.name, row[i] ?? null]);
      return `${JSON.stringify(Object.fromEntries(entries), bigintAsText)}\n`;
    })
    .join('');
}

/** What `npm run query` prints for a result, with its final line break. */
export function renderResult(
  result: QueryResult,
  format: OutputFormat,
  options: TableOptions = {},
): string {
  if (format === 'csv') return renderCsv(result);
  if (format === 'json') return renderJsonLines(result);
  return `${renderTable(result, options)}\n`;
}
