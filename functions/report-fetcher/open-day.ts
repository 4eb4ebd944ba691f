import {
  type ArchivedObject,
  GSM_REPORT_TYPES,
  gsmUsageKey,
  type ReportStore,
  SNAPSHOT_DATASETS,
  siteUsageKey,
} from '../../lib/aws/index.js';
import {
  addDays,
  ReportDay,
  SchemaError,
  SiteIdentity,
  type SkywatchClient,
  serviceValue,
} from '../../lib/index.js';
import {
  type DayJob,
  type DayState,
  type DayTask,
  entryOf,
  type HeldJob,
  type JobStore,
  jobEnded,
  type WalkTask,
} from './day-job.js';

/** A site of the sites report (one with a key and an id), with what a walk of it needs. */
export interface ReportSite {
  key: string;
  /** TotalEndpoints as the report gave it; 0 when absent or unreadable. */
  endpoints: number;
}

function count(site: { TotalEndpoints?: unknown }): number {
  const n = site.TotalEndpoints;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * 4.5 for every report type and 4.6 for every report type, for one GSM and day. Without a day
 * the service's newest report decides it; the answer's EffectiveDate names the day archived.
 */
export async function archiveGsmReports(
  client: SkywatchClient,
  store: ReportStore,
  gsm: string,
  day: string | undefined,
): Promise<{
  day: string;
  objects: ArchivedObject[];
  sites: ReportSite[];
  /** Sites of the sites report that lack a key or an id: they cannot be walked on their own. */
  unidentified: number;
}> {
  const objects: ArchivedObject[] = [];
  let effective = day;
  let sites: ReportSite[] = [];
  let unidentified = 0;
  for (const reportType of GSM_REPORT_TYPES) {
    const report = await client.gsmUsageReport(gsm, {
      reportType,
      ...(effective ? { effectiveDate: effective } : {}),
    });
    // Pin the day the service chose so every later call archives the same one.
    if (!effective) {
      const dated = client.needs(report, ReportDay, 'UsageReportGSM');
      if (!dated)
        throw new SchemaError(
          'UsageReportGSM names no usable EffectiveDate: no day to archive',
          'ReportInfo.EffectiveDate',
        );
      effective = dated.ReportInfo.EffectiveDate.slice(0, 10);
    }
    const meta = { operation: '4.5', gsm, reportType };
    // The service's own value: a field the reader left out is still archived.
    const key = gsmUsageKey(gsm, effective, reportType);
    objects.push(await store.writeRecords(key, [serviceValue(report)], meta));

    const bySite = await client.sitesUsageReport(gsm, { reportType, effectiveDate: effective });
    const siteKey = siteUsageKey(gsm, effective, reportType);
    // One line a site with its ReportInfo, so Athena reads a row per site.
    const sent = serviceValue(bySite) as { ReportInfo?: unknown; Sites?: unknown };
    const rows = (Array.isArray(sent.Sites) ? sent.Sites : []).map((Site: unknown) => ({
      ReportInfo: sent.ReportInfo,
      Site,
    }));
    objects.push(await store.writeRecords(siteKey, rows, { ...meta, operation: '4.6' }));
    // Every site is archived above; only those with key and id can be worked on (the client
    // counts the others, rule `needed`).
    // A site's size for planning walks: the largest count any report type gave it.
    const before = new Map(sites.map((s) => [s.key, s.endpoints]));
    sites = (bySite.Sites ?? []).flatMap((s) => {
      const site = client.needs(s, SiteIdentity, 'UsageReportSites.Sites');
      if (!site) return [];
      const endpoints = Math.max(count(s), before.get(site.SiteKey) ?? 0);
      return [{ key: site.SiteKey, endpoints }];
    });
    unidentified = (bySite.Sites ?? []).length - sites.length;
  }
  return { day: effective ?? '', objects, sites, unidentified };
}

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

export interface OpenSettings extends PlanSettings {
  /** An unfinished job not saved for this long has lost its owner and may be taken over. */
  staleMs: number;
}

interface OpenOptions {
  owner: string;
  now: number;
  settings: OpenSettings;
  /** Take on an ended job again when sites of it failed (not the daily run's newest day). */
  retryFailed: boolean;
}

/**
 * Takes on a day's existing job when it needs an owner: an unfinished one whose owner stopped
 * saving it (its continuation was lost, or its worker died for good), or, when `retryFailed`, an
 * ended one with sites whose report failed (a snapshot of the past cannot be taken again, so
 * failed walks stay failed).
 */
async function adopt(jobs: JobStore, found: HeldJob, options: OpenOptions): Promise<DayState> {
  const { job } = found;
  if (!jobEnded(job)) {
    // Lambda retries a failed asynchronous invocation with the same request id: a job this
    // request created or took on before it failed is its own to go on with.
    const own = job.owner === options.owner;
    if (!own && options.now - job.savedAt < options.settings.staleMs)
      return { state: 'running', job };
    return { state: 'held', ...(await jobs.claim(found, options.owner, options.now)) };
  }
  const failed = job.tasks.filter((t) => t.kind === 'site-report' && t.status === 'failed');
  if (!options.retryFailed || failed.length === 0) return { state: 'ended', job };
  const tasks = job.tasks.map((t) =>
    t.kind === 'site-report' && t.status === 'failed'
      ? { ...t, status: 'pending' as const, attempts: 0 }
      : t,
  );
  const retried = { ...found, job: { ...job, tasks } };
  return { state: 'held', ...(await jobs.claim(retried, options.owner, options.now)) };
}

/**
 * Opens a report day: archives its usage reports (unchanged objects are not written again) and
 * creates its job, or finds the job an earlier run created. Without `day`, the service's newest
 * report decides the day, and the job includes today's status snapshots.
 */
export async function openDay(
  deps: { client: SkywatchClient; store: ReportStore; jobs: JobStore },
  gsm: string,
  day: string | undefined,
  options: OpenOptions,
): Promise<DayState> {
  if (day !== undefined) {
    const found = await deps.jobs.read(gsm, day);
    if (found) return adopt(deps.jobs, found, options);
  }
  const reports = await archiveGsmReports(deps.client, deps.store, gsm, day);
  // The newest report is the day before yesterday, so a daily run's "today" is two days on.
  const snapshotDate = day === undefined ? addDays(reports.day, 2) : null;
  const found = await deps.jobs.read(gsm, reports.day);
  if (found && snapshotDate && found.job.snapshotDate === null) {
    // A backfill of the newest day came first: today's snapshots are still to be taken.
    const walks = planWalks(reports.sites, reports.unidentified, options.settings);
    const job = { ...found.job, snapshotDate, tasks: [...walks, ...found.job.tasks] };
    return {
      state: 'held',
      ...(await deps.jobs.claim({ ...found, job }, options.owner, options.now)),
    };
  }
  if (found) return adopt(deps.jobs, found, options);
  const job = newJob({
    gsm,
    day: reports.day,
    snapshotDate,
    sites: reports.sites,
    unidentified: reports.unidentified,
    reports: reports.objects,
    owner: options.owner,
    now: options.now,
    settings: options.settings,
  });
  const created = await deps.jobs.create(job);
  if (created) return { state: 'held', ...created };
  // Another run created it between the read and the write: it is that run's.
  const raced = await deps.jobs.read(gsm, reports.day);
  return { state: 'running', job: raced?.job ?? job };
}
