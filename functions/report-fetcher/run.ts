import type { SQSClient } from '@aws-sdk/client-sqs';
import { type ArchivedObject, manifestKey, type ReportStore } from '../../lib/aws/index.js';
import type { SkywatchClient } from '../../lib/index.js';
import { archiveGsmReports } from './archive-reports.js';
import { archiveSnapshots } from './archive-snapshots.js';
import { addDays } from './event.js';
import { archiveSites, type SitesOutcome } from './fan-out.js';

export interface FetchSettings {
  concurrency: number;
  fanoutThreshold: number;
  queueUrl?: string | undefined;
}

export interface Manifest {
  schema: 'skywatch.manifest/v1';
  gsm: string;
  /** The report day archived. */
  date: string;
  /** The day status snapshots were taken (daily runs only). */
  snapshotDate: string | null;
  objects: Omit<ArchivedObject, 'written'>[];
  sites: { expected: number; archived: number; failed: SitesOutcome['failed']; queued: string[] };
  complete: boolean;
}

/**
 * Archives one GSM for one day and writes the run's manifest. The manifest holds no clock
 * readings, so re-running a day with unchanged data leaves every object as it was.
 */
export async function archiveGsmDay(
  deps: { client: SkywatchClient; store: ReportStore; sqs: SQSClient },
  gsm: string,
  day: string | undefined,
  settings: FetchSettings,
): Promise<Manifest> {
  const reports = await archiveGsmReports(deps.client, deps.store, gsm, day);
  const sites = await archiveSites(
    deps,
    reports.sites.map((s) => ({ gsm, site: s.key, day: reports.day })),
    settings,
  );
  // The newest report is the day before yesterday, so a daily run's "today" is two days on.
  const snapshotDate = day === undefined ? addDays(reports.day, 2) : null;
  const snapshots = snapshotDate
    ? await archiveSnapshots(deps.client, deps.store, gsm, snapshotDate)
    : [];
  const objects = [...reports.objects, ...sites.archived, ...snapshots].map(
    ({ written: _written, ...o }) => o,
  );
  const manifest: Manifest = {
    schema: 'skywatch.manifest/v1',
    gsm,
    date: reports.day,
    snapshotDate,
    objects,
    sites: {
      expected: reports.sites.length,
      archived: sites.archived.length,
      failed: sites.failed,
      queued: sites.queued,
    },
    complete: sites.failed.length === 0,
  };
  await deps.store.writeJson(manifestKey(gsm, reports.day), manifest);
  return manifest;
}
