import { isDay } from '../validation/day.js';

/**
 * Hive-style keys so Athena can prune by partition: `reports/<dataset>/gsm=<key>/date=<day>/…`.
 * Keys are a pure function of what is archived, so a re-run of a date rewrites the same keys
 * and never leaves a second copy.
 */
export interface ReportKeyParts {
  /** Table name, e.g. `gsm-usage`, `site-usage`, `dnsp-usage`, `agent-status`, `dnsp-status`. */
  dataset: string;
  gsm: string;
  /** YYYY-MM-DD. */
  date: string;
  /** Extra partitions in order, e.g. `{ type: 'ActiveEndpoints' }` or `{ site: key }`. */
  partitions?: Record<string, string>;
  file: string;
}

const SAFE = /^[A-Za-z0-9._-]+$/;

function part(name: string, value: string): string {
  if (!SAFE.test(value))
    throw new RangeError(`report key part ${name} has unsafe characters: ${value}`);
  return value;
}

export function reportKey(p: ReportKeyParts): string {
  if (!isDay(p.date)) throw new RangeError(`report date must be YYYY-MM-DD: ${p.date}`);
  const extra = Object.entries(p.partitions ?? {}).map(
    ([k, v]) => `${part('partition', k)}=${part(k, v)}/`,
  );
  return `reports/${part('dataset', p.dataset)}/gsm=${part('gsm', p.gsm)}/date=${p.date}/${extra.join('')}${part('file', p.file)}`;
}

/** The manifest of one report-fetcher run for a GSM and date. */
export function manifestKey(gsm: string, date: string): string {
  return `manifests/report-fetcher/date=${date}/gsm=${part('gsm', gsm)}.json`;
}
