export type { AlertReport, OpenAlerts, ResolveTimes } from './alert-report.js';
export { ArchiveReader } from './archive-reader.js';
export { type BlockedUrlTotals, blockedUrlTotals } from './blocked-urls.js';
export {
  type BuildDeps,
  type BuildOptions,
  type BuildOutcome,
  buildReports,
  ReportSourceError,
} from './build-reports.js';
export { type CollectAlertsOptions, collectAlertReport } from './collect-alerts.js';
export { type CollectOptions, collectDailyReport } from './collect-daily.js';
export { renderDailyPage } from './daily-page.js';
export type { DailyReport, SiteRow, TrendDay } from './daily-report.js';
export { escapeHtml } from './html.js';
export { dailyPageKey, latestPageKey, seatCsvKey } from './page-keys.js';
export { MAX_LINK_SECONDS, reportLink, writeReportObject } from './page-store.js';
export {
  collectSeatReport,
  previousMonth,
  SEAT_CSV_COLUMNS,
  type SeatReport,
  seatCsv,
} from './seat-report.js';
