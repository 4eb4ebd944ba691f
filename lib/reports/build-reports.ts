import type { S3Client } from '@aws-sdk/client-s3';
import { manifestKey } from '../aws/report-keys.js';
import { ReportStore } from '../aws/report-store.js';
import type { SkywatchClient } from '../client/index.js';
import { SkywatchError } from '../errors/index.js';
import type { PageLinker } from '../links/page-links.js';
import { openTotal } from './alert-report.js';
import { ArchiveReader } from './archive-reader.js';
import { blockedUrlTotals } from './blocked-urls.js';
import { collectDailyReport } from './collect-daily.js';
import { renderDailyPage } from './daily-page.js';
import { dailyPageKey, infectedKey, latestPageKey, seatCsvKey } from './page-keys.js';
import { reportLink, storedReportDay, writeReportObject } from './page-store.js';
import { collectSeatReport, type SeatReport, seatCsv } from './seat-report.js';

export interface BuildDeps {
  s3: S3Client;
  bucket: string;
  /** For blocked-URL counts (not archived); without it the page shows them as unknown. */
  client?: Pick<SkywatchClient, 'blockedUrlCounts' | 'needs'>;
  /**
   * Signs CloudFront links to pages (the stack's report site); without it, or when it cannot
   * sign, the page's link is an S3 pre-signed URL as before.
   */
  links?: PageLinker;
}

export interface BuildOptions {
  gsm: string;
  /** The report day (YYYY-MM-DD). */
  day: string;
  /** Also the seat report of this month (YYYY-MM). */
  seatMonth?: string;
  expiryWindowDays?: number;
  siteConcurrency?: number;
  /** Seconds the returned link to the page works. */
  linkSeconds: number;
  now?: () => Date;
}

export interface BuildOutcome {
  gsm: string;
  day: string;
  /** Whether the day's manifest says every site was archived. */
  complete: boolean;
  sites: number;
  pageKey: string;
  pageBytes: number;
  /** Whether the GSM's latest page (latestPageKey) now shows this day. */
  latest: boolean;
  /** A link to the page: signed for the report site when it is on, else S3 pre-signed. */
  pageUrl: string;
  /** A signed link to the GSM's latest page, when the report site is on. */
  latestUrl?: string;
  /** When the report site's links stop working. */
  linkExpiresAt?: string;
  seatCsvKey?: string;
  blockedUrlFailures: { site: string; reason: string }[];
  /** What the page's Alerts section counts (lib/reports/alert-report.ts). */
  alerts: { open: number; opened: number; resolved: number; sitesResolved: number };
}

/** The report day has no manifest: the archive of that day has not run (or has expired). */
export class ReportSourceError extends SkywatchError {
  constructor(
    readonly gsm: string,
    readonly day: string,
  ) {
    super(
      `No archive manifest for GSM ${gsm} on ${day}: run the report fetcher for that day first (see docs/operations.md, Running a function by hand).`,
    );
    this.name = 'ReportSourceError';
  }
}

interface Manifest {
  complete?: boolean;
  snapshotDate?: string | null;
}

/**
 * The daily page of one GSM and report day (and, when asked, the month's seat CSV, which the
 * page then shows as a section), written beside the archive under `pages/`; also copied to
 * the GSM's latest page unless that already shows a newer day.
 *
 * @example
 * await buildReports({ s3, bucket, client }, { gsm, day: '2026-06-14', linkSeconds: 86_400 });
 */
export async function buildReports(deps: BuildDeps, options: BuildOptions): Promise<BuildOutcome> {
  const { gsm, day } = options;
  const reader = new ArchiveReader(deps.s3, deps.bucket);
  const store = new ReportStore(deps.s3, deps.bucket);
  const stored = (await store.readJson(manifestKey(gsm, day))) as Manifest | undefined;
  if (!stored) throw new ReportSourceError(gsm, day);
  const report = await collectDailyReport(reader, {
    gsm,
    day,
    infectedCache: {
      get: async (g, date) =>
        (await store.readJson(infectedKey(g, date))) as [string, string][] | undefined,
      put: (g, date, infected) => store.writeJson(infectedKey(g, date), infected),
    },
    snapshotDate: stored.snapshotDate ?? null,
    expiryWindowDays: options.expiryWindowDays,
    now: options.now,
  });
  let failures: BuildOutcome['blockedUrlFailures'] = [];
  if (deps.client) {
    const blocked = await blockedUrlTotals(
      deps.client,
      gsm,
      report.sites,
      day,
      options.siteConcurrency,
    );
    for (const site of report.sites) site.blockedUrls = blocked.bySite.get(site.key) ?? null;
    failures = blocked.failed;
  }
  let seats: SeatReport | undefined;
  let csvKey: string | undefined;
  if (options.seatMonth) {
    seats = await collectSeatReport(reader, gsm, options.seatMonth);
    csvKey = seatCsvKey(gsm, options.seatMonth);
    await writeReportObject(
      deps.s3,
      deps.bucket,
      csvKey,
      seatCsv(seats),
      'text/csv; charset=utf-8',
    );
  }
  const html = await renderDailyPage(report, seats);
  const pageKey = dailyPageKey(gsm, day);
  await writeReportObject(deps.s3, deps.bucket, pageKey, html, 'text/html; charset=utf-8');
  // A backfill of an older day must not replace the newer page the digest links to.
  const latestKey = latestPageKey(gsm);
  const latestDay = await storedReportDay(deps.s3, deps.bucket, latestKey);
  const latest = latestDay === undefined || latestDay <= day;
  if (latest)
    await writeReportObject(deps.s3, deps.bucket, latestKey, html, 'text/html; charset=utf-8', {
      'report-day': day,
    });
  const [pageLink, latestLink] = deps.links
    ? await Promise.all([deps.links(pageKey), deps.links(latestKey)])
    : [];
  return {
    gsm,
    day,
    complete: stored.complete === true,
    sites: report.sites.length,
    pageKey,
    pageBytes: Buffer.byteLength(html),
    latest,
    pageUrl:
      pageLink?.url ?? (await reportLink(deps.s3, deps.bucket, pageKey, options.linkSeconds)),
    ...(latestLink ? { latestUrl: latestLink.url } : {}),
    ...(pageLink ? { linkExpiresAt: pageLink.expiresAt } : {}),
    ...(csvKey ? { seatCsvKey: csvKey } : {}),
    blockedUrlFailures: failures,
    alerts: {
      open: openTotal(report.alerts),
      opened: report.alerts.opened,
      resolved: report.alerts.resolved,
      sitesResolved: report.alerts.resolveTimes.length,
    },
  };
}
