import { redact } from '../../lib/index.js';

export type Verdict = 'ok' | 'warn' | 'fail' | 'skip';

/** One line of the report: what was checked, how it went, and what to do about it. */
export interface CheckRow {
  check: string;
  verdict: Verdict;
  detail: string;
  /** What to change; set on `warn` and `fail`. */
  fix?: string;
}

const MARK: Record<Verdict, string> = { ok: 'OK', warn: 'WARN', fail: 'FAIL', skip: 'SKIP' };

/**
 * The report as a text table, then what to fix. Every text is redacted on the way out: a
 * credential that slipped into an error message never reaches the terminal.
 */
export function renderReport(rows: readonly CheckRow[]): string {
  const clean = rows.map((r) => ({
    ...r,
    check: redact(r.check),
    detail: redact(r.detail),
    ...(r.fix ? { fix: redact(r.fix) } : {}),
  }));
  const width = Math.max(5, ...clean.map((r) => r.check.length));
  const lines = [`${'CHECK'.padEnd(width)}  RESULT  DETAIL`];
  for (const r of clean) {
    lines.push(`${r.check.padEnd(width)}  ${MARK[r.verdict].padEnd(6)}  ${r.detail}`);
  }
  const todo = clean.filter((r) => r.fix);
  if (todo.length > 0) {
    lines.push('', 'What to fix:');
    for (const r of todo) lines.push(`- ${r.check}: ${r.fix}`);
  }
  const failed = clean.filter((r) => r.verdict === 'fail').length;
  lines.push('', failed === 0 ? 'All checks passed.' : `${failed} check(s) failed.`);
  return lines.join('\n');
}

/** True when no row failed. */
export function passed(rows: readonly CheckRow[]): boolean {
  return rows.every((r) => r.verdict !== 'fail');
}
