import { manifestKey, type ReportStore } from '../../lib/aws/index.js';
import { addDays } from './event.js';

/**
 * Report days before `newest` (within `days`) that a daily run should archive again: those
 * with no manifest (every attempt of that day's run failed, say under long throttling) and
 * those whose manifest says sites were missing. Snapshots of the past cannot be taken; the
 * reports can, so a missed day costs a snapshot at most, never a report.
 */
export async function daysToCatchUp(
  store: ReportStore,
  gsm: string,
  newest: string,
  days: number,
): Promise<string[]> {
  const due: string[] = [];
  for (let n = days; n >= 1; n--) {
    const day = addDays(newest, -n);
    const manifest = (await store.readJson(manifestKey(gsm, day))) as
      | { complete?: boolean }
      | undefined;
    if (manifest?.complete !== true) due.push(day);
  }
  return due;
}
