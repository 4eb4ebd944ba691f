import pLimit, { type LimitFunction } from 'p-limit';
import {
  dnspUsageFolder,
  gsmUsageKey,
  isSnapshotKey,
  siteUsageKey,
  snapshotFolder,
} from '../aws/report-keys.js';
import { daysUpTo } from '../validation/day.js';
import type { GsmReportType } from '../validation/identifiers.js';
import type { ArchiveReader } from './archive-reader.js';
import {
  DnspUsageLine,
  GsmUsageLine,
  SiteUsageLine,
  StatusLine,
  usableLine,
  usableLines,
} from './archived-lines.js';
import { collectAlertReport } from './collect-alerts.js';
import type { DailyReport, SiteRow, TrendDay } from './daily-report.js';

export interface CollectOptions {
  gsm: string;
  /** The report day (YYYY-MM-DD). */
  day: string;
  /** Day of the newest status snapshot; null or absent: none is used. */
  snapshotDate?: string | null;
  /** Days of the trends. @default 30 */
  trendDays?: number;
  /** @default 60 */
  expiryWindowDays?: number;
  /** Blocked-URL actions by site key, read from the service by the caller. */
  blockedUrls?: ReadonlyMap<string, number>;
  /**
   * Where the infected endpoints of past snapshots are kept once read, so a day's page streams
   * one new snapshot rather than thirty-one. Only snapshots before the newest are kept: the
   * newest may still be taken again by a re-run of the report fetcher.
   */
  infectedCache?: InfectedCache;
  /** Objects read at once. @default 16 */
  concurrency?: number;
  now?: () => Date;
}

/** The report type the page reads: active endpoints are what seats are billed on. */
export const SITE_REPORT_TYPE: GsmReportType = 'ActiveEndpoints';

/** DNS protection of each site on a day, from that day's archived DNSP reports (4.8). */
export type DnspBySite = Map<string, { enabled: boolean; agents: number }>;

/**
 * Reads a day's DNSP site reports (one object a site) into one map by site key; a day without
 * them gives an empty map.
 */
export async function dnspBySite(
  reader: ArchiveReader,
  gsm: string,
  date: string,
  limit: LimitFunction,
): Promise<DnspBySite> {
  const keys = await limit(() => reader.keys(dnspUsageFolder(gsm, date)));
  const dnsp: DnspBySite = new Map();
  await Promise.all(
    keys.map((key) =>
      limit(async () => {
        for (const line of usableLines(await reader.records(key), DnspUsageLine).lines)
          for (const s of line.Sites)
            if (s) dnsp.set(s.SiteKey, { enabled: s.DNSPEnabled, agents: s.TotalDNSPAgents });
      }),
    ),
  );
  return dnsp;
}

/** Infected endpoints of one snapshot, by MachineID, with their site. */
export type InfectedSet = Map<string, string>;

export interface InfectedCache {
  get(gsm: string, date: string): Promise<[machineId: string, site: string][] | undefined>;
  put(gsm: string, date: string, infected: [machineId: string, site: string][]): Promise<void>;
}

async function cachedInfected(
  reader: ArchiveReader,
  cache: InfectedCache | undefined,
  gsm: string,
  date: string,
  keep: boolean,
): Promise<InfectedSet | undefined> {
  const cached = keep ? await cache?.get(gsm, date) : undefined;
  if (cached) return new Map(cached);
  const infected = await infectedIn(reader, gsm, date);
  if (infected && keep) await cache?.put(gsm, date, [...infected]);
  return infected;
}

export async function infectedIn(
  reader: ArchiveReader,
  gsm: string,
  date: string,
): Promise<InfectedSet | undefined> {
  // One object for the console, or one a site when a large console was walked site by site.
  const keys = (await reader.keys(snapshotFolder('agent-status', gsm, date))).filter(isSnapshotKey);
  const infected: InfectedSet = new Map();
  let seen = false;
  for (const key of keys.sort()) {
    for await (const raw of reader.stream(key)) {
      seen = true;
      // An entry the service wrote without its id or infection flag cannot be counted either way.
      const line = usableLine(raw, StatusLine);
      if (line?.BasicInfo.Infected) infected.set(line.MachineID, line.KC);
    }
  }
  return seen ? infected : undefined;
}

const count = (a: InfectedSet | undefined, b: InfectedSet | undefined) => {
  if (!a || !b) return null;
  let n = 0;
  for (const id of a.keys()) if (!b.has(id)) n++;
  return n;
};

/**
 * Reads what the daily page shows from the archive: the report day's sites and DNSP reports,
 * the GSM reports of the trend's days, the status snapshots of its days (streamed; only
 * infected MachineIDs are kept) and the alert history of its days (./collect-alerts.ts).
 *
 * @example
 * const report = await collectDailyReport(new ArchiveReader(s3, bucket), { gsm, day: '2026-06-14' });
 */
export async function collectDailyReport(
  reader: ArchiveReader,
  options: CollectOptions,
): Promise<DailyReport> {
  const { gsm, day } = options;
  const limit = pLimit(options.concurrency ?? 16);
  const trendDays = options.trendDays ?? 30;
  const sitesKey = siteUsageKey(gsm, day, SITE_REPORT_TYPE);
  const siteLines = usableLines(await reader.records(sitesKey), SiteUsageLine).lines;
  const dnsp = await dnspBySite(reader, gsm, day, limit);

  const gsmReports = await Promise.all(
    daysUpTo(day, trendDays).map((date) =>
      limit(async () => {
        const lines = await reader.records(gsmUsageKey(gsm, date, SITE_REPORT_TYPE));
        return { date, report: lines?.[0] ? usableLine(lines[0], GsmUsageLine) : undefined };
      }),
    ),
  );
  const endpointTrend: TrendDay[] = gsmReports.map(({ date, report }) => ({
    date,
    activeEndpoints: report
      ? report.GSM.TotalEndpointsWithoutTrial + report.GSM.TotalTrialEndpoints
      : null,
    infected: null,
    newInfections: null,
    cleaned: null,
  }));
  const newest = gsmReports.at(-1)?.report ?? gsmReports.findLast((r) => r.report)?.report;
  // Read while the snapshots stream: neither waits on the other. Its failure is raised where
  // it is awaited, not as an unhandled rejection should the snapshots fail first.
  const alerts = collectAlertReport(reader, { gsm, day, days: trendDays, limit });
  alerts.catch(() => undefined);

  const snapshotDate = options.snapshotDate ?? null;
  const snapshotDays = snapshotDate ? daysUpTo(snapshotDate, trendDays + 1) : [];
  // Snapshots are large: two at a time keeps memory to two sets of infected IDs being built.
  const snapshotLimit = pLimit(2);
  const infected = await Promise.all(
    snapshotDays.map((date) =>
      snapshotLimit(() =>
        cachedInfected(reader, options.infectedCache, gsm, date, date !== snapshotDate),
      ),
    ),
  );
  const infectionTrend: TrendDay[] = snapshotDays.slice(1).map((date, i) => {
    const today = infected[i + 1];
    const before = infected[i];
    return {
      date,
      activeEndpoints: null,
      infected: today ? today.size : null,
      newInfections: count(today, before),
      cleaned: count(before, today),
    };
  });
  const latestInfected = infected.at(-1);
  const infectedBySite = new Map<string, number>();
  for (const site of latestInfected?.values() ?? [])
    infectedBySite.set(site, (infectedBySite.get(site) ?? 0) + 1);

  const sites: SiteRow[] = siteLines.map(({ Site: s }) => ({
    key: s.SiteKey,
    id: s.SiteId,
    name: s.SiteName || s.SiteKey,
    licenseType: s.LicenseType,
    expiryDate: s.ExpiryDate,
    endpoints: s.TotalEndpoints,
    dnspEnabled: dnsp.get(s.SiteKey)?.enabled ?? false,
    dnspAgents: dnsp.get(s.SiteKey)?.agents ?? 0,
    infected: infectedBySite.get(s.SiteKey) ?? 0,
    blockedUrls: options.blockedUrls?.get(s.SiteKey) ?? null,
  }));
  return {
    gsm,
    gsmName: newest?.GSM.GSMConsoleName ?? gsm,
    gsmExpiry: newest?.GSM.ExpiryDate ?? null,
    day,
    snapshotDate: latestInfected ? snapshotDate : null,
    generatedAt: (options.now?.() ?? new Date()).toISOString(),
    sites,
    endpointTrend,
    infectionTrend,
    expiryWindowDays: options.expiryWindowDays ?? 60,
    alerts: await alerts,
  };
}
