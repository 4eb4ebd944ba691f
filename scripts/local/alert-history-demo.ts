import { DeleteObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { ReportStore } from '../../lib/aws/index.js';
import { alertEventsFolder } from '../../lib/aws/report-keys.js';
import { ArchiveReader } from '../../lib/reports/archive-reader.js';
import type { BuildOutcome } from '../../lib/reports/index.js';
import { daysFrom, startOfDay } from '../../lib/validation/day.js';

/** The instants of a history row: both move together, so its time to resolve stays the same. */
const INSTANTS = ['at', 'openedAt'] as const;

const shifted = (instant: unknown, ms: number) =>
  typeof instant === 'string' ? new Date(Date.parse(instant) + ms).toISOString() : instant;

/**
 * The local run has no past: its alerter and notifier write their history under today, while
 * the daily page is of the newest report day, the day before yesterday. This moves every history
 * object dated after `reportDay` (up to `today`) onto it, each row's instants moved back by the
 * same whole days, so the page's Alerts section and `npm run query` show the run's alerts on the
 * report day. Answers the objects and rows moved.
 *
 * @example
 * await backdateAlertHistory(s3, bucket, gsm, '2026-06-14', '2026-06-16');
 */
export async function backdateAlertHistory(
  s3: S3Client,
  bucket: string,
  gsm: string,
  reportDay: string,
  today: string,
): Promise<{ objects: number; rows: number }> {
  const reader = new ArchiveReader(s3, bucket);
  const store = new ReportStore(s3, bucket);
  let objects = 0;
  let rows = 0;
  for (const date of daysFrom(reportDay, today).slice(1)) {
    const ms = startOfDay(reportDay) - startOfDay(date);
    for (const key of await reader.keys(alertEventsFolder(gsm, date))) {
      const records = (await reader.records(key)) ?? [];
      const moved = records
        .flatMap((r) => (r ? [r] : []))
        .map((r) => {
          const row = { ...r };
          for (const field of INSTANTS) row[field] = shifted(row[field], ms);
          return row;
        });
      await store.writeNewRecords(key.replace(`/date=${date}/`, `/date=${reportDay}/`), moved);
      await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      objects++;
      rows += moved.length;
    }
  }
  return { objects, rows };
}

/** What `npm start` prints of a page's Alerts section, so a newcomer knows to look for it. */
export function alertSectionLine(day: string, alerts: BuildOutcome['alerts']): string {
  const sites = `${alerts.sitesResolved} site${alerts.sitesResolved === 1 ? '' : 's'}`;
  return `Alerts section (#alerts): ${alerts.open} open at the end of ${day}, ${alerts.opened} opened and ${alerts.resolved} resolved that day; time to resolve charted for ${sites} over 30 days`;
}
