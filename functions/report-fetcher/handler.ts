import * as z from '../../lib/zod.js';
import { GsmEnv, intSetting, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { ArchiveEnv } from './archive-env.js';
import { daysToCatchUp } from './catch-up.js';
import { handOver } from './continue.js';
import { runDates } from './event.js';
import { jobSettings, runAndHandOver } from './invocation.js';
import { jobEvents, reportDay } from './job-report.js';
import { JobTakenError } from './job-store.js';
import { settleManifest } from './manifest.js';
import { type Opened, openDay } from './open-day.js';
import { archiveDeps } from './stores.js';

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
    settings: {
      siteWalkAbove: env.SITE_WALK_ABOVE,
      staleMs: env.JOB_STALE_MINUTES * 60_000,
    },
  };
  const days: { gsm: string; day: string | undefined; opened: Opened }[] = [];
  for (const gsm of env.GSM_KEYS) {
    if (dates) {
      for (const day of dates)
        days.push({
          gsm,
          day,
          opened: await openDay(deps, gsm, day, { ...open, retryFailed: true }),
        });
      continue;
    }
    const newest = await openDay(deps, gsm, undefined, { ...open, retryFailed: false });
    days.push({ gsm, day: undefined, opened: newest });
    const newestDay = newest.kind === 'held' ? newest.held.job.date : newest.job.date;
    // A day whose job failed for good, or has sites whose report failed, is completed now.
    for (const day of await daysToCatchUp(deps.manifests, gsm, newestDay, env.CATCH_UP_DAYS)) {
      obs.logger.warn('catching up a report day', { gsm, date: day });
      days.push({
        gsm,
        day,
        opened: await openDay(deps, gsm, day, { ...open, retryFailed: true }),
      });
    }
  }
  const events = jobEvents(obs);
  const results = [];
  for (const { opened } of days) {
    if (opened.kind === 'ended') {
      const manifest = await settleManifest(deps.manifests, opened.job);
      results.push(reportDay(obs, opened.job, 'ended', manifest));
      continue;
    }
    if (opened.kind === 'running') {
      results.push(reportDay(obs, opened.job, 'running', undefined));
      continue;
    }
    // Days this invocation has no time left for go straight to a fresh invocation.
    if (deps.queue && Date.now() >= settings.pauseAt) {
      await handOver(deps.queue, opened.held.job);
      results.push(reportDay(obs, opened.held.job, 'handed-over', undefined));
      continue;
    }
    try {
      const outcome = await runAndHandOver(deps, opened.held, settings, events);
      results.push(reportDay(obs, outcome.held.job, outcome.state, outcome.manifest));
    } catch (error) {
      // Another invocation took the day over (it had gone stale): it is that one's now.
      if (!(error instanceof JobTakenError)) throw error;
      results.push(reportDay(obs, opened.held.job, 'taken', undefined));
    }
  }
  // The heartbeat the missed-archive alarm watches: a daily run counts when every day it
  // touched is complete, or goes on in the archive worker (whose dead-letter alarm covers it).
  if (
    !dates &&
    results.every((r) => r.complete || ['handed-over', 'running', 'taken'].includes(r.state))
  )
    obs.metrics.addMetric('ArchiveCompleted', MetricUnit.Count, 1);
  return { days: results };
});
