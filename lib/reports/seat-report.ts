import pLimit from 'p-limit';
import { siteUsageKey } from '../aws/report-keys.js';
import type { ArchiveReader } from './archive-reader.js';
import { SiteUsageLine, usableLines } from './archived-lines.js';
import { dnspBySite, SITE_REPORT_TYPE } from './collect-daily.js';

/** One site's seats over a month. */
export interface SiteSeats {
  siteKey: string;
  siteId: string;
  siteName: string;
  /** Licence type on the last day the site was reported (`Full`, `Trial`). */
  licence: string;
  trialDays: number;
  fullDays: number;
  /** Days of the month with a report for the site. */
  daysReported: number;
  endpointsMax: number;
  /** Mean over the days reported, two decimals. */
  endpointsAvg: number;
  /** Endpoints on the last day reported. */
  endpointsLastDay: number;
  lastDay: string;
  dnspEnabled: boolean;
  dnspSeatsMax: number;
  dnspSeatsLastDay: number;
}

export interface SeatReport {
  gsm: string;
  /** YYYY-MM. */
  month: string;
  daysInMonth: number;
  /** Days of the month whose sites report is archived. */
  daysArchived: string[];
  sites: SiteSeats[];
}

/** The month before the one `day` (YYYY-MM-DD) falls in, as YYYY-MM. */
export function previousMonth(day: string): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The days of a month (YYYY-MM). */
export function daysOfMonth(month: string): string[] {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const count = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
}

/**
 * The seats of each site over a month, from the archived `ActiveEndpoints` sites reports (4.6)
 * and DNSP reports (4.8) of each of its days: what billing is reconciled against.
 *
 * @example
 * const seats = await collectSeatReport(reader, gsm, previousMonth('2026-07-01'));
 */
export async function collectSeatReport(
  reader: ArchiveReader,
  gsm: string,
  month: string,
  concurrency = 16,
): Promise<SeatReport> {
  const limit = pLimit(concurrency);
  const days = daysOfMonth(month);
  const perDay = await Promise.all(
    days.map(async (date) => {
      const raw = await limit(() => reader.records(siteUsageKey(gsm, date, SITE_REPORT_TYPE)));
      // A site line without its key or endpoint count is not a reported day for that site.
      const sites = raw ? usableLines(raw, SiteUsageLine).lines : undefined;
      const dnsp = await dnspBySite(reader, gsm, date, limit);
      return { date, sites, dnsp };
    }),
  );
  const bySite = new Map<string, SiteSeats & { total: number }>();
  for (const { date, sites, dnsp } of perDay) {
    for (const { Site: s } of sites ?? []) {
      const endpoints = s.TotalEndpoints;
      const agents = dnsp.get(s.SiteKey);
      const seats = bySite.get(s.SiteKey) ?? {
        siteKey: s.SiteKey,
        siteId: s.SiteId,
        siteName: s.SiteName || s.SiteKey,
        licence: s.LicenseType,
        trialDays: 0,
        fullDays: 0,
        daysReported: 0,
        endpointsMax: 0,
        endpointsAvg: 0,
        endpointsLastDay: 0,
        lastDay: date,
        dnspEnabled: false,
        dnspSeatsMax: 0,
        dnspSeatsLastDay: 0,
        total: 0,
      };
      // Days are in order: the last one seen is the month's last reported day.
      // A blank name or licence on one day keeps what an earlier day said.
      seats.siteName = s.SiteName || seats.siteName || s.SiteKey;
      seats.licence = s.LicenseType || seats.licence;
      if (seats.licence.toLowerCase() === 'trial') seats.trialDays++;
      else seats.fullDays++;
      seats.daysReported++;
      seats.total += endpoints;
      seats.endpointsMax = Math.max(seats.endpointsMax, endpoints);
      seats.endpointsLastDay = endpoints;
      seats.lastDay = date;
      seats.dnspEnabled = agents?.enabled ?? false;
      seats.dnspSeatsMax = Math.max(seats.dnspSeatsMax, agents?.agents ?? 0);
      seats.dnspSeatsLastDay = agents?.agents ?? 0;
      bySite.set(s.SiteKey, seats);
    }
  }
  const sites = [...bySite.values()]
    .map(({ total, ...seats }) => ({
      ...seats,
      endpointsAvg: Math.round((100 * total) / seats.daysReported) / 100,
    }))
    .sort((a, b) => a.siteName.localeCompare(b.siteName) || a.siteKey.localeCompare(b.siteKey));
  return {
    gsm,
    month,
    daysInMonth: days.length,
    daysArchived: perDay.filter((d) => d.sites).map((d) => d.date),
    sites,
  };
}

/** The CSV's columns, in order (docs/operations.md documents each). */
export const SEAT_CSV_COLUMNS = [
  'month',
  'gsm_key',
  'site_key',
  'site_id',
  'site_name',
  'licence',
  'trial_days',
  'full_days',
  'days_reported',
  'days_in_month',
  'endpoints_max',
  'endpoints_avg',
  'endpoints_last_day',
  'last_day',
  'dnsp_enabled',
  'dnsp_seats_max',
  'dnsp_seats_last_day',
] as const;

/**
 * A CSV field: quoted when it holds a separator, quote or line break (RFC 4180), and a text
 * that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first) is prefixed
 * with `'`, so a site name cannot become a formula in the PSA's or the reviewer's sheet.
 */
export function csvField(value: string | number | boolean): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The seat report as CSV: a header line, then a line a site; CRLF line ends (RFC 4180). */
export function seatCsv(report: SeatReport): string {
  const lines = report.sites.map((s) =>
    [
      report.month,
      report.gsm,
      s.siteKey,
      s.siteId,
      s.siteName,
      s.licence,
      s.trialDays,
      s.fullDays,
      s.daysReported,
      report.daysInMonth,
      s.endpointsMax,
      s.endpointsAvg.toFixed(2),
      s.endpointsLastDay,
      s.lastDay,
      s.dnspEnabled,
      s.dnspSeatsMax,
      s.dnspSeatsLastDay,
    ]
      .map(csvField)
      .join(','),
  );
  return `${[SEAT_CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
