import { isDay } from '../validation/day.js';
import {
  type DnspReportType,
  GSM_REPORT_TYPES,
  type GsmReportType,
} from '../validation/identifiers.js';

/**
 * The archive's layout, one module for its writers (functions/report-fetcher), its readers
 * (lib/reports) and its Athena tables (infra/constructs/archive-datasets.ts). Hive-style keys
 * so Athena can prune by partition: `reports/<dataset>/gsm=<key>/date=<day>/…`. Keys are a pure
 * function of what is archived, so a re-run of a date rewrites the same keys and never leaves a
 * second copy.
 *
 * @example
 * gsmUsageKey('G', '2026-06-14', 'ActiveEndpoints'); // reports/gsm-usage/gsm=G/date=2026-06-14/type=ActiveEndpoints/report.ndjson.gz
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

/** Every GSM report type is archived, by 4.5 and by 4.6. */
export { GSM_REPORT_TYPES };
/** The one DNSP report type archived, by 4.8 a site at a time. */
export const DNSP_REPORT_TYPE = 'DevicesSeenInLast30Days' satisfies DnspReportType;
/** Status snapshots: 4.3/4.4 of a console, or 4.1/4.2 of each site when walked site by site. */
export const SNAPSHOT_DATASETS = ['agent-status', 'dnsp-status'] as const;
export type SnapshotDataset = (typeof SNAPSHOT_DATASETS)[number];
/** The archive's datasets, each a table under `reports/<dataset>/`. */
export type ReportDataset =
  | SnapshotDataset
  | 'gsm-usage'
  | 'site-usage'
  | 'dnsp-usage'
  | 'alert-events';

const SAFE = /^[A-Za-z0-9._-]+$/;
const SNAPSHOT = 'snapshot.ndjson.gz';

function part(name: string, value: string): string {
  if (!SAFE.test(value))
    throw new RangeError(`report key part ${name} has unsafe characters: ${value}`);
  return value;
}

/** The folder of a key's partitions, ending in `/`: what a reader lists. */
function reportFolder(p: Omit<ReportKeyParts, 'file'>): string {
  if (!isDay(p.date)) throw new RangeError(`report date must be YYYY-MM-DD: ${p.date}`);
  const extra = Object.entries(p.partitions ?? {}).map(
    ([k, v]) => `${part('partition', k)}=${part(k, v)}/`,
  );
  return `reports/${part('dataset', p.dataset)}/gsm=${part('gsm', p.gsm)}/date=${p.date}/${extra.join('')}`;
}

export const reportKey = (p: ReportKeyParts): string => reportFolder(p) + part('file', p.file);

/** A GSM's usage report (4.5) of one type and day. */
export const gsmUsageKey = (gsm: string, date: string, type: GsmReportType) =>
  reportKey({ dataset: 'gsm-usage', gsm, date, partitions: { type }, file: 'report.ndjson.gz' });

/** The usage report of a GSM's sites (4.6) of one type and day: one line a site. */
export const siteUsageKey = (gsm: string, date: string, type: GsmReportType) =>
  reportKey({ dataset: 'site-usage', gsm, date, partitions: { type }, file: 'sites.ndjson.gz' });

/** The folder of a day's DNSP usage reports (4.8), one object a site. */
export const dnspUsageFolder = (gsm: string, date: string) =>
  reportFolder({ dataset: 'dnsp-usage', gsm, date, partitions: { type: DNSP_REPORT_TYPE } });

/** A site's DNSP usage report of a day. */
export const dnspUsageKey = (gsm: string, date: string, site: string) =>
  `${dnspUsageFolder(gsm, date)}site=${part('site', site)}/report.ndjson.gz`;

/** A status snapshot of a day: the console's, or one site's below the day's partition. */
export const snapshotKey = (dataset: SnapshotDataset, gsm: string, date: string, site?: string) =>
  reportKey({ dataset, gsm, date, partitions: site === undefined ? {} : { site }, file: SNAPSHOT });

/** The folder of a day's snapshots of `dataset`, the console's and every site's. */
export const snapshotFolder = (dataset: SnapshotDataset, gsm: string, date: string) =>
  reportFolder({ dataset, gsm, date });

/** Whether a key below a snapshot folder is a snapshot. */
export const isSnapshotKey = (key: string) => key.endsWith(`/${SNAPSHOT}`);

/**
 * The alert history (lib/alerts/history.ts) one writer wrote in one run for a GSM: `writer` is
 * `alerter` or `notifier`, `run` the invocation's id, so each run adds an object and none is
 * ever rewritten by another.
 */
export const alertEventsKey = (gsm: string, date: string, writer: string, run: string) =>
  reportKey({
    dataset: 'alert-events',
    gsm,
    date,
    file: `${part('writer', writer)}-${part('run', run)}.ndjson.gz`,
  });

/** The folder of a GSM's alert history of one day, every writer's and run's object. */
export const alertEventsFolder = (gsm: string, date: string) =>
  reportFolder({ dataset: 'alert-events', gsm, date });

/** Whether a key below an alert-events folder is an object `writer` wrote. */
export const isAlertEventsKeyOf = (key: string, writer: string) =>
  key.slice(key.lastIndexOf('/') + 1).startsWith(`${writer}-`);

/** The manifest of one report-fetcher run for a GSM and date. */
export function manifestKey(gsm: string, date: string): string {
  return `manifests/report-fetcher/date=${date}/gsm=${part('gsm', gsm)}.json`;
}
