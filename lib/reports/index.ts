export { ArchiveReader } from './archive-reader.js';
export { type BlockedUrlTotals, blockedUrlTotals } from './blocked-urls.js';
export { type CollectOptions, collectDailyReport } from './collect-daily.js';
export { renderDailyPage } from './daily-page.js';
export type { DailyReport, SiteRow, TrendDay } from './daily-report.js';
export { escapeHtml } from './html.js';
export { dailyPageKey, seatCsvKey } from './page-keys.js';
export {
  collectSeatReport,
  previousMonth,
  SEAT_CSV_COLUMNS,
  type SeatReport,
  seatCsv,
} from './seat-report.js';
