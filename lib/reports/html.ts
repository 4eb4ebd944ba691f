const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * A value from the service or the archive as HTML text (element content or a quoted attribute
 * value): every character that could end a text or an attribute is an entity.
 *
 * @example escapeHtml('<script>') // '&lt;script&gt;'
 */
export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** A whole number with thousands separators, the same on every machine. */
export const formatCount = (n: number | null | undefined): string =>
  n === null || n === undefined ? '–' : Math.round(n).toLocaleString('en-US');

export interface TableSpec {
  caption: string;
  /** Column headings; the first column is each row's header. */
  columns: readonly string[];
  rows: readonly (readonly (string | number | null)[])[];
  /** Columns holding numbers, aligned right. */
  numeric?: readonly number[];
}

/** An accessible table: caption, column headers with scope, the first cell a row header. */
export function table(spec: TableSpec): string {
  // Markup per cell is what a 5,000-site page is made of: numbers are right-aligned by the
  // stylesheet's default, only text cells carry a class, a row's leading <th> is its header
  // without a scope attribute (a header cell first in a body row is a row header to browsers
  // and screen readers), and cells and rows omit their end tags, which HTML makes optional.
  const numeric = new Set(spec.numeric ?? []);
  const cell = (value: string | number | null, i: number) => {
    const text = typeof value === 'number' ? formatCount(value) : escapeHtml(value ?? '–');
    if (i === 0) return `<th>${text}`;
    return numeric.has(i) ? `<td>${text}` : `<td class="t">${text}`;
  };
  const head = spec.columns.map((c) => `<th scope="col">${escapeHtml(c)}</th>`).join('');
  const body = spec.rows.map((row) => `<tr>${row.map(cell).join('')}`).join('\n');
  return `<table><caption>${escapeHtml(spec.caption)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/**
 * A chart beside the table of its numbers: the figure is one image to a screen reader, named
 * by its caption, and the table is what the reader reads instead.
 */
export function figure(id: string, svg: string, caption: string, tableHtml: string): string {
  return `<div class="pair"><figure id="${id}" role="img" aria-label="${escapeHtml(caption)}">${svg}<figcaption>${escapeHtml(caption)}</figcaption></figure>${tableHtml}</div>`;
}
