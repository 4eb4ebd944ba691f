import type { ReportStore } from '../../lib/aws/index.js';
import { addDays, type SkywatchClient } from '../../lib/index.js';
import { archiveGsmReports } from './archive-reports.js';
import { type DayJob, jobEnded } from './day-job.js';
import type { HeldJob, JobStore } from './job-store.js';
import { newJob, type PlanSettings, planWalks } from './plan.js';

export interface OpenDeps {
  client: SkywatchClient;
  store: ReportStore;
  jobs: JobStore;
}

export interface OpenSettings extends PlanSettings {
  /** An unfinished job not saved for this long has lost its owner and may be taken over. */
  staleMs: number;
}

/** What a run found for a day: a job it now holds, or why it holds none. */
export type Opened =
  | { kind: 'held'; held: HeldJob }
  | { kind: 'ended'; job: DayJob }
  | { kind: 'running'; job: DayJob };

/**
 * Takes on a day's existing job when it needs an owner: an unfinished one whose owner stopped
 * saving it (its continuation was lost, or its worker died for good), or, when `retryFailed`, an
 * ended one with sites whose report failed (a snapshot of the past cannot be taken again, so
 * failed walks stay failed).
 */
async function adopt(
  deps: OpenDeps,
  found: HeldJob,
  options: { owner: string; now: number; staleMs: number; retryFailed: boolean },
): Promise<Opened> {
  const { job } = found;
  if (!jobEnded(job)) {
    // Lambda retries a failed asynchronous invocation with the same request id: a job this
    // request created or took on before it failed is its own to go on with.
    const own = job.owner === options.owner;
    if (!own && options.now - job.savedAt < options.staleMs) return { kind: 'running', job };
    return { kind: 'held', held: await deps.jobs.claim(found, options.owner, options.now) };
  }
  const failed = job.tasks.filter((t) => t.kind === 'site-report' && t.status === 'failed');
  if (!options.retryFailed || failed.length === 0) return { kind: 'ended', job };
  const tasks = job.tasks.map((t) =>
    t.kind === 'site-report' && t.status === 'failed'
      ? { ...t, status: 'pending' as const, attempts: 0 }
      : t,
  );
  return {
    kind: 'held',
    held: await deps.jobs.claim({ ...found, job: { ...job, tasks } }, options.owner, options.now),
  };
}

/**
 * Opens a report day: archives its usage reports (unchanged objects are not written again) and
 * creates its job, or finds the job an earlier run created. Without `day`, the service's newest
 * report decides the day, and the job includes today's status snapshots.
 */
export async function openDay(
  deps: OpenDeps,
  gsm: string,
  day: string | undefined,
  options: { owner: string; now: number; settings: OpenSettings; retryFailed: boolean },
): Promise<Opened> {
  const adoption = { ...options, staleMs: options.settings.staleMs };
  if (day !== undefined) {
    const found = await deps.jobs.read(gsm, day);
    if (found) return adopt(deps, found, adoption);
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
      kind: 'held',
      held: await deps.jobs.claim({ ...found, job }, options.owner, options.now),
    };
  }
  if (found) return adopt(deps, found, adoption);
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
  if (created) return { kind: 'held', held: created };
  // Another run created it between the read and the write: it is that run's.
  const raced = await deps.jobs.read(gsm, reports.day);
  return raced ? { kind: 'running', job: raced.job } : { kind: 'running', job };
}
