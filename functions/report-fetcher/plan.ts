import { type ArchivedObject, SNAPSHOT_DATASETS } from '../../lib/aws/index.js';
import type { ReportSite } from './archive-reports.js';
import { type DayJob, type DayTask, entryOf, type WalkTask } from './day-job.js';

export interface PlanSettings {
  /**
   * Consoles with more endpoints than this are walked site by site, in parallel; smaller ones
   * in one walk of the console, which takes far fewer calls when sites are small.
   */
  siteWalkAbove: number;
}

function walk(dataset: WalkTask['dataset'], expected: number, site?: string): WalkTask {
  return {
    id: `${dataset}/${site ?? 'console'}`,
    kind: 'walk',
    dataset,
    ...(site === undefined ? {} : { site }),
    expected,
    status: 'pending',
    attempts: 0,
    resumptions: 0,
  };
}

/**
 * The snapshot walks of a day. Site by site only when every site of the report can be named:
 * a site the report gave without key or id would otherwise be left out of the snapshot, and
 * the console's walk cannot miss it.
 */
export function planWalks(
  sites: ReportSite[],
  unidentified: number,
  settings: PlanSettings,
): WalkTask[] {
  const total = sites.reduce((sum, s) => sum + s.endpoints, 0);
  if (total <= settings.siteWalkAbove || unidentified > 0 || sites.length === 0)
    return SNAPSHOT_DATASETS.map((d) => walk(d, total));
  // Biggest first: the day's snapshot then takes about as long as its biggest site.
  const bySize = [...sites].sort((a, b) => b.endpoints - a.endpoints || (a.key < b.key ? -1 : 1));
  return bySize.flatMap((s) => SNAPSHOT_DATASETS.map((d) => walk(d, s.endpoints, s.key)));
}

/** A new job for a day whose usage reports are archived. */
export function newJob(input: {
  gsm: string;
  day: string;
  snapshotDate: string | null;
  sites: ReportSite[];
  unidentified: number;
  reports: ArchivedObject[];
  owner: string;
  now: number;
  settings: PlanSettings;
}): DayJob {
  const keys = input.sites.map((s) => s.key).sort();
  const walks = input.snapshotDate
    ? planWalks(input.sites, input.unidentified, input.settings)
    : [];
  const siteReports: DayTask[] = keys.map((site) => ({
    id: `dnsp-usage/${site}`,
    kind: 'site-report',
    site,
    status: 'pending',
    attempts: 0,
  }));
  return {
    schema: 'skywatch.day-job/v1',
    gsm: input.gsm,
    date: input.day,
    snapshotDate: input.snapshotDate,
    sites: keys,
    reports: input.reports.map(entryOf),
    // Walks first: they are long, and site reports fill the slots walks leave.
    tasks: [...walks, ...siteReports],
    generation: 1,
    owner: input.owner,
    savedAt: input.now,
    stats: { invocations: 1, resumptions: 0, pages: 0, throttles: 0 },
  };
}
