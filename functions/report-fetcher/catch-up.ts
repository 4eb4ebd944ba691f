import { manifestKey, type StateStore } from '../../lib/aws/index.js';
import { addDays } from '../../lib/index.js';
import * as z from '../../lib/zod.js';

/**
 * Report days before `newest` (within `days`) that a daily run should look at again: those
 * whose manifest is absent (every run of that day failed, or its job has not ended) or says the
 * day is not complete. Snapshots of the past cannot be taken; the reports can, so a missed day
 * costs a snapshot at most, never a report (open-day.ts decides what each day still needs).
 */
export async function daysToCatchUp(
  manifests: StateStore,
  gsm: string,
  newest: string,
  days: number,
): Promise<string[]> {
  const due: string[] = [];
  for (let n = days; n >= 1; n--) {
    const day = addDays(newest, -n);
    const manifest = await manifests.get(manifestKey(gsm, day), z.unknown());
    if ((manifest?.value as { complete?: unknown } | undefined)?.complete !== true) due.push(day);
  }
  return due;
}
