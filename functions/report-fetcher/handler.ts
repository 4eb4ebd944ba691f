import { manifestKey, type StateStore } from '../../lib/aws/index.js';
import { addDays, Day, daysFrom } from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import { ArchiveEnv, GsmEnv, intSetting, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { type DayState, handOver, JobTakenError, type SettledDay } from './day-job.js';
import { jobEvents, reportDay, settleManifest } from './manifest.js';
import { openDay } from './open-day.js';
import {
  archiveDeps,
  type JobDeps,
  type JobEvents,
  type JobSettings,
  jobSettings,
  runDay,
} from './run-job.js';

const Dates = z.strictObject({ dates: z.array(Day).check(z.minLength(1), z.maxLength(400)) });
// Day aborts on a day the calendar lacks, so these refinements compare real days only.
const Range = z.strictObject({ from: Day, to: Day }).check(
  z.refine((e) => e.from <= e.to, { message: 'from must not be after to', path: ['from'] }),
  // Both ends included, so `to` may be 399 days after `from` at the most.
  z.refine((e) => addDays(e.to, -399) <= e.from, {
    message: 'a backfill covers at most 400 days',
    path: ['to'],
  }),
);

/**
 * Dates a run covers: undefined means "the newest report" (the daily run). A schedule sends
 * anything else (its payload is ignored) and archives the newest report day plus today's status
 * snapshots; a backfill names `dates`, or `from` and `to` (both included), and archives their
 * reports (snapshots cannot be taken of the past). A malformed backfill throws a ZodError.
 */
export function runDates(event: unknown): string[] | undefined {
  const candidate = event as { dates?: unknown; from?: unknown };
  if (candidate === null || typeof candidate !== 'object') return undefined;
  if ('dates' in candidate) return [...new Set(z.parse(Dates, event).dates)].sort();
  if (!('from' in candidate)) return undefined;
  const { from, to } = z.parse(Range, event);
  return daysFrom(from, to);
}

/**
 * Report days before `newest` (within `days`) that a daily run should look at again: those
 * whose manifest is absent (every run of that day failed, or its job has not ended) or says the
 * day is not complete. Snapshots of the past cannot be taken; the reports can, so a missed day
 * costs a snapshot at most, never a report (`openDay` decides what each day still needs).
 */
async function daysToCatchUp(
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

/** Takes an opened day as far as this invocation goes: its manifest, or a run of its job. */
async function settle(
  deps: JobDeps,
  day: DayState,
  settings: JobSettings,
  events: JobEvents,
): Promise<SettledDay> {
  if (day.state === 'ended')
    return { ...day, manifest: await settleManifest(deps.manifests, day.job) };
  if (day.state !== 'held') return day;
  // Days this invocation has no time left for go straight to a fresh invocation.
  if (deps.queue && Date.now() >= settings.pauseAt) {
    await handOver(deps.queue, day.job);
    return { state: 'handed-over', job: day.job };
  }
  try {
    return await runDay(deps, day, settings, events);
  } catch (error) {
    // Another invocation took the day over (it had gone stale): it is that one's now.
    if (!(error instanceof JobTakenError)) throw error;
    return { state: 'taken', job: day.job };
  }
}

/** report-fetcher: the daily archive, or a backfill of named dates. */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...ArchiveEnv.shape,
    ...GsmEnv.shape,
    CATCH_UP_DAYS: intSetting({ min: 0, max: 30, default: 3 }),
  }),
);
const obs = await observability('report-fetcher');
const runtime = serviceRuntime('report-fetcher', obs, env);
const deps = archiveDeps(env, runtime.client);

export const handler = lambda(obs, async (event: unknown, context) => {
  runtime.bind(context);
  const dates = runDates(event);
  const now = Date.now();
  const settings = jobSettings(env, context, now);
  const open = {
    owner: context.awsRequestId,
    now,
    settings: { siteWalkAbove: env.SITE_WALK_ABOVE, staleMs: env.JOB_STALE_MINUTES * 60_000 },
  };
  const days: DayState[] = [];
  for (const gsm of env.GSM_KEYS) {
    if (dates) {
      for (const day of dates)
        days.push(await openDay(deps, gsm, day, { ...open, retryFailed: true }));
      continue;
    }
    const newest = await openDay(deps, gsm, undefined, { ...open, retryFailed: false });
    days.push(newest);
    // A day whose job failed for good, or has sites whose report failed, is completed now.
    for (const day of await daysToCatchUp(
      deps.manifests,
      gsm,
      newest.job.date,
      env.CATCH_UP_DAYS,
    )) {
      obs.logger.warn('catching up a report day', { gsm, date: day });
      days.push(await openDay(deps, gsm, day, { ...open, retryFailed: true }));
    }
  }
  const events = jobEvents(obs);
  const results = [];
  for (const day of days) results.push(reportDay(obs, await settle(deps, day, settings, events)));
  // The heartbeat the missed-archive alarm watches: a daily run counts when every day it
  // touched is complete, or goes on in the archive worker (whose dead-letter alarm covers it).
  if (
    !dates &&
    results.every((r) => r.complete || ['handed-over', 'running', 'taken'].includes(r.state))
  )
    obs.metrics.addMetric('ArchiveCompleted', MetricUnit.Count, 1);
  return { days: results };
});
