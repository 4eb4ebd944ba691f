import * as z from 'zod';
import { ReportStore, s3Client, sqsClient } from '../../lib/aws/index.js';
import { BucketEnv, GsmEnv, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { daysToCatchUp } from './catch-up.js';
import { runDates } from './event.js';
import { archiveGsmDay, type Manifest } from './run.js';

/** report-fetcher: the daily archive, or a backfill of named dates. */
const env = readEnv(
  ServiceEnv.extend(BucketEnv.shape)
    .extend(GsmEnv.shape)
    .extend({
      FANOUT_QUEUE_URL: z.string().optional(),
      FANOUT_THRESHOLD: z.coerce.number().int().min(0).default(50),
      SITE_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(8),
      CATCH_UP_DAYS: z.coerce.number().int().min(0).max(30).default(3),
    }),
);
const obs = observability('report-fetcher');
const runtime = serviceRuntime('report-fetcher', obs, env);
const store = new ReportStore(s3Client(), env.REPORT_BUCKET);
const sqs = sqsClient();

export const handler = lambda(obs, async (event: unknown, context) => {
  runtime.bind(context);
  const dates = runDates(event);
  const manifests: Manifest[] = [];
  const settings = {
    concurrency: env.SITE_CONCURRENCY,
    fanoutThreshold: env.FANOUT_THRESHOLD,
    queueUrl: env.FANOUT_QUEUE_URL,
  };
  const deps = { client: runtime.client, store, sqs };
  const archive = async (gsm: string, day: string | undefined) => {
    const manifest = await archiveGsmDay(deps, gsm, day, settings);
    manifests.push(manifest);
    obs.metrics.addMetric('ObjectsArchived', MetricUnit.Count, manifest.objects.length);
    obs.metrics.addMetric('SitesFailed', MetricUnit.Count, manifest.sites.failed.length);
    obs.logger.info('archived', {
      gsm,
      date: manifest.date,
      objects: manifest.objects.length,
      sites: manifest.sites,
    });
    return manifest;
  };
  for (const gsm of env.GSM_KEYS) {
    if (dates) {
      for (const day of dates) await archive(gsm, day);
      continue;
    }
    const newest = await archive(gsm, undefined);
    // A day whose every run failed, or that ended with sites missing, is archived now.
    for (const day of await daysToCatchUp(store, gsm, newest.date, env.CATCH_UP_DAYS)) {
      obs.logger.warn('catching up a report day', { gsm, date: day });
      await archive(gsm, day);
    }
  }
  // The heartbeat the missed-archive alarm watches: only a complete daily run counts.
  if (!dates && manifests.every((m) => m.complete))
    obs.metrics.addMetric('ArchiveCompleted', MetricUnit.Count, 1);
  return {
    manifests: manifests.map((m) => ({
      gsm: m.gsm,
      date: m.date,
      objects: m.objects.length,
      sites: m.sites,
    })),
  };
});
