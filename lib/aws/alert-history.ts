import type { AlertEventRow } from '../alerts/history.js';
import { dayOf } from '../validation/day.js';
import { alertEventsKey } from './report-keys.js';
import type { ReportStore } from './report-store.js';

/** Who writes a history object: the infection alerter or the alert notifier. */
export type AlertHistoryWriter = 'alerter' | 'notifier';

/**
 * Archives alert history rows (lib/alerts/history.ts) beside the reports, one gzip NDJSON
 * object per run and GSM, dated by the run. The history is a record of alerts, never a
 * condition for them: a write that fails is handed to `onError` (a log line and a metric) and
 * `write` still resolves, so an alert is neither failed nor retried because of it.
 *
 * @example
 * const history = new AlertHistory(new ReportStore(s3, bucket), 'notifier', (e) => log(e));
 * await history.write(context.awsRequestId, rows, Date.now());
 */
export class AlertHistory {
  constructor(
    private readonly store: ReportStore,
    private readonly writer: AlertHistoryWriter,
    private readonly onError: (error: unknown, gsm: string) => void,
  ) {}

  /** Writes `rows` (any GSMs) for run `run` at `now`; answers the objects written. */
  async write(run: string, rows: readonly AlertEventRow[], now: number): Promise<number> {
    const byGsm = new Map<string, AlertEventRow[]>();
    for (const row of rows) byGsm.set(row.gsm, [...(byGsm.get(row.gsm) ?? []), row]);
    let written = 0;
    for (const [gsm, of] of byGsm) {
      try {
        await this.store.writeNewRecords(alertEventsKey(gsm, dayOf(now), this.writer, run), of);
        written++;
      } catch (error) {
        this.onError(error, gsm);
      }
    }
    return written;
  }
}
