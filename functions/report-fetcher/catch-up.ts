import { manifestKey, type StateStore } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { addDays } from './event.js';
import { finaliseDay } from './manifest.js';
import {
  archiveDaySites,
  archiveGsmDay,
  type DayResult,
  type FetchDeps,
  type FetchSettings,
} from './run.js';

/**
 * Report days before `newest` (within `days`) that a daily run should look at again: those
 * with no manifest (every attempt of that day's run failed, say under long throttling) and
 * those whose manifest says sites are missing. Snapshots of the past cannot be taken; the
 * reports can, so a missed day costs a snapshot at most, never a report.
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

/**
 * Completes a day: with no run record, archives all of it; otherwise rebuilds the manifest
 * first (site workers may have finished since it was written) and archives or re-queues only
 * the sites still missing, a site that ended in the dead-letter queue among them.
 */
export async function catchUpDay(
  deps: FetchDeps,
  gsm: string,
  day: string,
  settings: FetchSettings,
): Promise<DayResult> {
  const run = await deps.records.readRun(gsm, day);
  const manifest = run && (await finaliseDay(deps, gsm, day));
  if (!run || !manifest) return archiveGsmDay(deps, gsm, day, settings);
  if (manifest.complete) return { manifest, queued: [], failed: [] };
  const { missing } = manifest.sites;
  return archiveDaySites(deps, gsm, day, missing, run.value.sites.length, settings);
}
