import type { QueryResult, ResultColumn } from './query-result.js';

// Ours because @duckdb/node-api (1.5) renders nothing: it hands out values and column types,
// and the box of DuckDB's CLI lives in the CLI, not in the library. Node's console.table quotes
// every string and shows 64-bit integers, which DuckDB gives as exact strings, as text.

export interface TableOptions {
  /** Longer cells end in `…`. @default 50 */
  readonly maxCellWidth?: number;
  /** Above this many rows the middle ones are left out, as DuckDB's CLI does; 0 shows all. @default 40 */
  readonly maxRows?: number;
}

/** Control characters as escapes, so a cell stays on its line. */
function visible(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0)) out += ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return out;
}

const bigintAsText = (_key: string, value: unknown) =>
  typeof value === 'bigint' ? value.toString() : value;

/**
 * A value as a person reads it: text unquoted, numbers as digits (bigints whole), NULL for
 * null, structs and lists as JSON.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'string') return visible(value);
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') {
    return String(value);
  }
  if (value instanceof Date) return value.toISOString();
  return visible(JSON.stringify(value, bigintAsText) ?? String(value));
}

/** `STRUCT("SiteKey" VARCHAR, …)[]` → `struct[]`: the box has no room for a nested type. */
export function shortType(type: string): string {
  return type.replace(/^(STRUCT|MAP|UNION)\(.*\)/s, '$1').toLowerCase();
}

const width = (text: string) => [...text].length;

function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(max - 1, 0)).join('')}…`;
}

function pad(text: string, size: number, align: 'left' | 'right' | 'center'): string {
  const room = size - width(text);
  if (room <= 0) return text;
  if (align === 'right') return ' '.repeat(room) + text;
  if (align === 'left') return text + ' '.repeat(room);
  const before = Math.floor(room / 2);
  return ' '.repeat(before) + text + ' '.repeat(room - before);
}

const isNumber = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';
const numericColumn = (column: ResultColumn, values: unknown[]) =>
  column.numeric ??
  (values.some((v) => v !== null && v !== undefined) &&
    values.every((v) => v === null || v === undefined || isNumber(v)));

const plural = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`;

/**
 * The rows in a box like DuckDB's CLI draws: column names and types centred, numbers
 * right-aligned, the rest left-aligned, and the row count under it.
 *
 * @example
 * renderTable({ columns: [{ name: 'n', type: 'BIGINT', numeric: true }], rows: [['109']] });
 * // ┌────────┐
 * // │   n    │
 * // │ bigint │
 * // ├────────┤
 * // │    109 │
 * // └────────┘
 * // 1 row
 */
export function renderTable(result: QueryResult, options: TableOptions = {}): string {
  const { maxCellWidth = 50, maxRows = 40 } = options;
  const { columns, rows } = result;
  if (columns.length === 0) return plural(rows.length);
  const truncated = maxRows > 0 && rows.length > maxRows;
  const shown = truncated
    ? [
        ...rows.slice(0, Math.ceil(maxRows / 2)),
        null,
        ...rows.slice(rows.length - Math.floor(maxRows / 2)),
      ]
    : [...rows];
  const right = columns.map((c, i) =>
    numericColumn(
      c,
      rows.map((r) => r[i]),
    ),
  );
  const names = columns.map((c) => cut(visible(c.name), maxCellWidth));
  const types = columns.map((c) => cut(shortType(c.type), maxCellWidth));
  const cells = shown.map((row) =>
    row === null ? null : columns.map((_, i) => cut(cellText(row[i]), maxCellWidth)),
  );
  const widths = columns.map((_, i) =>
    cells.reduce(
      (w, r) => Math.max(w, r ? width(r[i] ?? '') : 1),
      Math.max(width(names[i] ?? ''), width(types[i] ?? '')),
    ),
  );
  const rule = (left: string, middle: string, end: string) =>
    left + widths.map((w) => '─'.repeat(w + 2)).join(middle) + end;
  const line = (texts: readonly string[], align: (i: number) => 'left' | 'right' | 'center') =>
    `│${texts.map((t, i) => ` ${pad(t, widths[i] ?? 0, align(i))} `).join('│')}│`;
  const body = cells.map((r) =>
    r === null
      ? line(
          columns.map(() => '…'),
          () => 'center',
        )
      : line(r, (i) => (right[i] ? 'right' : 'left')),
  );
  const footer = truncated ? `${plural(rows.length)} (${maxRows} shown)` : plural(rows.length);
  return [
    rule('┌', '┬', '┐'),
    line(names, () => 'center'),
    line(types, () => 'center'),
    rule('├', '┼', '┤'),
    ...body,
    rule('└', '┴', '┘'),
    footer,
  ].join('\n');
}
