import { sqsClient, WorkQueue } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { GsmEnv, intSetting, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { ArchiveEnv } from './archive-env.js';
import type { SiteTask } from './archive-site.js';
import { catchUpDay, daysToCatchUp } from './catch-up.js';
import { runDates } from './event.js';
import { archiveGsmDay, type DayResult } from './run.js';
import { archiveStores } from './stores.js';

/** report-fetcher: the daily archive, or a backfill of named dates. */
const env = readEnv(
  z.extend(ServiceEnv, {
    ...ArchiveEnv.shape,
    ...GsmEnv.shape,
    FANOUT_QUEUE_URL: z.optional(z.string()),
    FANOUT_THRESHOLD: intSetting({ min: 0, default: 50 }),
    SITE_CONCURRENCY: intSetting({ min: 1, max: 64, default: 8 }),
    CATCH_UP_DAYS: intSetting({ min: 0, max: 30, default: 3 }),
  }),
);
const obs = observability('report-fetcher');
const runtime = serviceRuntime('report-fetcher', obs, env);
const deps = {
  client: runtime.client,
  ...archiveStores(env.REPORT_BUCKET, env.ARCHIVE_GZIP_LEVEL),
  queue: env.FANOUT_QUEUE_URL
    ? new WorkQueue<SiteTask>(sqsClient(), env.FANOUT_QUEUE_URL)
    : undefined,
};
const settings = { concurrency: env.SITE_CONCURRENCY, fanoutThreshold: env.FANOUT_THRESHOLD };

/** Long site lists are cut in log lines (the manifest has them all). */
const first = <T>(xs: T[]) => xs.slice(0, 20);

function report(gsm: string, result: DayResult, caughtUp: boolean): DayResult {
  const { manifest, queued, failed } = result;
  obs.metrics.addMetric('ObjectsArchived', MetricUnit.Count, manifest.objects.length);
  obs.metrics.addMetric('SitesFailed', MetricUnit.Count, failed.length);
  obs.metrics.addMetric('SitesQueued', MetricUnit.Count, queued.length);
  obs.metrics.addMetric('SitesMissing', MetricUnit.Count, manifest.sites.missing.length);
  obs.logger.info(caughtUp ? 'caught up' : 'archived', {
    gsm,
    date: manifest.date,
    complete: manifest.complete,
    objects: manifest.objects.length,
    sites: { ...manifest.sites, missing: first(manifest.sites.missing) },
    queued: queued.length,
    failedHere: first(failed),
  });
  return result;
}

export const handler = lambda(obs, async (event: unknown, context) => {
  runtime.bind(context);
  const dates = runDates(event);
  const results: DayResult[] = [];
  for (const gsm of env.GSM_KEYS) {
    if (dates) {
      for (const day of dates)
        results.push(report(gsm, await archiveGsmDay(deps, gsm, day, settings), false));
      continue;
    }
    const newest = report(gsm, await archiveGsmDay(deps, gsm, undefined, settings), false);
    results.push(newest);
    // A day whose every run failed, or that has sites missing, is completed now.
    const due = await daysToCatchUp(deps.manifests, gsm, newest.manifest.date, env.CATCH_UP_DAYS);
    for (const day of due) {
      obs.logger.warn('catching up a report day', { gsm, date: day });
      results.push(report(gsm, await catchUpDay(deps, gsm, day, settings), true));
    }
  }
  // The heartbeat the missed-archive alarm watches: a daily run counts when every day it
  // touched is complete or waits only for sites it queued (the fan-out DLQ alarm covers those).
  const settled = (r: DayResult) => {
    const queued = new Set(r.queued);
    return r.manifest.sites.missing.every((s) => queued.has(s));
  };
  if (!dates && results.every(settled))
    obs.metrics.addMetric('ArchiveCompleted', MetricUnit.Count, 1);
  return {
    manifests: results.map(({ manifest: m, queued }) => ({
      gsm: m.gsm,
      date: m.date,
      complete: m.complete,
      objects: m.objects.length,
      sites: m.sites,
      queued: queued.length,
    })),
  };
});
