import pLimit from 'p-limit';
import type { ReportStore, StateStore, WorkQueue } from '../../lib/aws/index.js';
import type { SkywatchClient } from '../../lib/index.js';
import { archiveGsmReports } from './archive-reports.js';
import type { SiteTask } from './archive-site.js';
import { archiveSnapshots } from './archive-snapshots.js';
import type { DayRecords } from './day-records.js';
import { addDays } from './event.js';
import { archiveSites } from './fan-out.js';
import { finaliseDay, type Manifest } from './manifest.js';

export interface FetchDeps {
  client: SkywatchClient;
  store: ReportStore;
  records: DayRecords;
  /** Conditional writes of manifests (a StateStore over the bucket root). */
  manifests: StateStore;
  /** The fan-out queue, when the function has one. */
  queue?: WorkQueue<SiteTask> | undefined;
}

export interface FetchSettings {
  concurrency: number;
  fanoutThreshold: number;
}

/** What one invocation did for a day, beside the day's manifest. */
export interface DayResult {
  manifest: Manifest;
  /** Sites this invocation handed to the fan-out queue. */
  queued: string[];
  /** Sites that failed in this invocation (not those a site worker may fail later). */
  failed: { site: string; reason: string }[];
}

/**
 * Archives one GSM for one day: the GSM and site-usage reports, the status snapshots (daily
 * runs only), then every site, and writes the manifest. The run record goes first, so that a
 * site worker finishing before this invocation does finds what the day expects.
 */
export async function archiveGsmDay(
  deps: FetchDeps,
  gsm: string,
  day: string | undefined,
  settings: FetchSettings,
): Promise<DayResult> {
  const reports = await archiveGsmReports(deps.client, deps.store, gsm, day);
  // The newest report is the day before yesterday, so a daily run's "today" is two days on.
  const snapshotDate = day === undefined ? addDays(reports.day, 2) : null;
  const snapshots = snapshotDate
    ? await archiveSnapshots(deps.client, deps.store, gsm, snapshotDate)
    : [];
  const sites = reports.sites.map((s) => s.key).sort();
  await deps.records.writeRun({
    schema: 'skywatch.report-run/v1',
    gsm,
    date: reports.day,
    snapshotDate,
    sites,
    objects: [...reports.objects, ...snapshots].map(({ key, bytes, records, sha256 }) => ({
      key,
      bytes,
      records,
      sha256,
    })),
  });
  return archiveDaySites(deps, gsm, reports.day, sites, sites.length, settings);
}

/**
 * Archives (or queues) some sites of a day whose run record exists, records how each ended in
 * this invocation, and rebuilds the manifest.
 */
export async function archiveDaySites(
  deps: FetchDeps,
  gsm: string,
  day: string,
  sites: string[],
  siteCount: number,
  settings: FetchSettings,
): Promise<DayResult> {
  const outcome = await archiveSites(
    deps,
    sites.map((site) => ({ gsm, site, day, siteCount })),
    settings,
  );
  const limit = pLimit(settings.concurrency);
  await Promise.all([
    ...outcome.archived.map((a) =>
      limit(() => deps.records.archived({ gsm, site: a.site, day }, a.objects)),
    ),
    ...outcome.failed.map((f) =>
      limit(() => deps.records.failed({ gsm, site: f.site, day }, f.reason)),
    ),
  ]);
  const manifest = await finaliseDay(deps, gsm, day);
  if (!manifest) throw new Error(`report day ${day} of ${gsm} has no run record`);
  return { manifest, queued: outcome.queued, failed: outcome.failed };
}
