import type { LimitFunction } from 'p-limit';
import { AlertEventRow } from '../alerts/history.js';
import { alertEventsFolder, isAlertEventsKeyOf } from '../aws/report-keys.js';
import { daysUpTo } from '../validation/day.js';
import { type AlertReport, AlertTally } from './alert-report.js';
import type { ArchiveReader } from './archive-reader.js';
import { usableLines } from './archived-lines.js';

export interface CollectAlertsOptions {
  gsm: string;
  /** The report day (YYYY-MM-DD): alerts are counted as of its end. */
  day: string;
  /** Days read, ending on `day`: the page's trend days. */
  days: number;
  limit: LimitFunction;
}

/**
 * The Alerts section's numbers, from the alerter's history objects of the GSM over the `days`
 * days to the report day (docs/operations.md, "Alert history"). Only the alerter's objects are
 * read: the notifier's rows are deliveries, which no number of the section counts. A line that
 * is not a history row is skipped and counted; an alert whose last row is older than the first
 * day read is not seen at all.
 *
 * @example
 * const alerts = await collectAlertReport(reader, { gsm, day: '2026-06-14', days: 30, limit: pLimit(16) });
 */
export async function collectAlertReport(
  reader: ArchiveReader,
  options: CollectAlertsOptions,
): Promise<AlertReport> {
  const { gsm, day, limit } = options;
  const days = daysUpTo(day, options.days);
  const tally = new AlertTally(day, days[0] ?? day);
  await Promise.all(
    days.map(async (date) => {
      // The listing takes its slot and gives it back before the reads queue for theirs.
      const keys = await limit(() => reader.keys(alertEventsFolder(gsm, date)));
      await Promise.all(
        keys
          .filter((key) => isAlertEventsKeyOf(key, 'alerter'))
          .map((key) =>
            limit(async () => {
              const { lines, skipped } = usableLines(await reader.records(key), AlertEventRow);
              tally.add(date, lines, skipped);
            }),
          ),
      );
    }),
  );
  return tally.report();
}
