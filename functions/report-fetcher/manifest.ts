import { isDeepStrictEqual } from 'node:util';
import { manifestKey, type StateStore } from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { MetricUnit, type Observability } from '../shared/observability.js';
import { ArchivedObjectEntry, type DayJob, type SettledDay } from './day-job.js';
import type { JobEvents } from './run-job.js';

const ManifestObject = z.extend(ArchivedObjectEntry, {
  /** The site a DNSP report or a site's snapshot belongs to. */
  site: z.optional(z.string()),
});
const SiteFailure = z.object({ site: z.string(), reason: z.string(), attempts: z.number() });
const WalkFailure = z.object({ walk: z.string(), reason: z.string(), attempts: z.number() });

/**
 * The manifest of a report day (`manifests/report-fetcher/date=<day>/gsm=<GSM>.json`): every
 * object the day's archive holds, which sites and snapshot walks are missing, and whether the
 * day is complete. It is written from the day's job once every task has ended, and holds no
 * clock readings, so the same job always gives the same bytes.
 */
export const Manifest = z.object({
  schema: z.literal('skywatch.manifest/v3'),
  gsm: z.string(),
  date: z.string(),
  snapshotDate: z.nullable(z.string()),
  /** True when every site's DNSP report and every snapshot walk is archived. */
  complete: z.boolean(),
  sites: z.object({
    expected: z.number(),
    archived: z.number(),
    /** Sites without an archived DNSP report. */
    missing: z.array(z.string()),
    /** The missing sites, with why their last attempt failed and how many attempts failed. */
    failed: z.array(SiteFailure),
  }),
  snapshots: z.object({
    /** Walks planned: two for the console, or two a site for a large console. */
    walks: z.number(),
    archived: z.number(),
    failed: z.array(WalkFailure),
  }),
  objects: z.array(ManifestObject),
});
export type Manifest = z.infer<typeof Manifest>;

const byKey = (a: { key: string }, b: { key: string }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** The manifest of an ended job. */
export function buildManifest(job: DayJob): Manifest {
  const objects: Manifest['objects'] = [...job.reports];
  const archivedSites = new Set<string>();
  const failedSites: Manifest['sites']['failed'] = [];
  const walks = job.tasks.filter((t) => t.kind === 'walk');
  const failedWalks: Manifest['snapshots']['failed'] = [];
  for (const task of job.tasks) {
    if (task.status === 'done' && task.object) {
      objects.push(task.site === undefined ? task.object : { ...task.object, site: task.site });
      if (task.kind === 'site-report') archivedSites.add(task.site);
      continue;
    }
    const failure = { reason: task.reason ?? 'not attempted', attempts: task.attempts };
    if (task.kind === 'site-report') failedSites.push({ site: task.site, ...failure });
    else failedWalks.push({ walk: task.id, ...failure });
  }
  objects.sort(byKey);
  const missing = job.sites.filter((s) => !archivedSites.has(s));
  return {
    schema: 'skywatch.manifest/v3',
    gsm: job.gsm,
    date: job.date,
    snapshotDate: job.snapshotDate,
    complete: missing.length === 0 && failedWalks.length === 0,
    sites: {
      expected: job.sites.length,
      archived: job.sites.length - missing.length,
      missing,
      failed: failedSites.sort((a, b) => (a.site < b.site ? -1 : 1)),
    },
    snapshots: {
      walks: walks.length,
      archived: walks.length - failedWalks.length,
      failed: failedWalks.sort((a, b) => (a.walk < b.walk ? -1 : 1)),
    },
    objects,
  };
}

/**
 * The manifest of an ended job, written when absent or changed (lost, or from an older
 * version): re-running a finished day writes nothing and leaves every object as it was. The
 * stored document is compared as JSON values, whatever order its keys were written in.
 */
export async function settleManifest(manifests: StateStore, job: DayJob): Promise<Manifest> {
  const manifest = buildManifest(job);
  const key = manifestKey(manifest.gsm, manifest.date);
  const current = await manifests.get(key, z.unknown());
  if (!current || !isDeepStrictEqual(current.value, manifest)) await manifests.put(key, manifest);
  return manifest;
}

/** What a job tells the operator as it runs: pages, throttling, tasks that failed for good. */
export function jobEvents(obs: Observability): JobEvents {
  return {
    onPage: () => obs.metrics.addMetric('PagesArchived', MetricUnit.Count, 1),
    onThrottle: (limit, reason) => {
      obs.metrics.addMetric('ConcurrencyCuts', MetricUnit.Count, 1);
      obs.logger.warn('fewer service calls at once', { limit, reason });
    },
    onTaskFailed: (task, reason) => obs.logger.warn('task failed', { task: task.id, reason }),
    // Throttled answers: a throttled day finishes later rather than failing.
    onThrottled: (count) => obs.metrics.addMetric('ServiceThrottled', MetricUnit.Count, count),
  };
}

/** Long site lists are cut in log lines (the manifest has them all). */
const first = <T>(xs: T[]) => xs.slice(0, 20);

/**
 * A day's line and metrics at the end of an invocation: its progress while it runs, its
 * manifest's counts once it has ended.
 */
export function reportDay(obs: Observability, day: SettledDay) {
  const { job, state } = day;
  const manifest = day.state === 'ended' ? day.manifest : undefined;
  const line = {
    gsm: job.gsm,
    date: job.date,
    state,
    complete: manifest?.complete ?? false,
    pending: job.tasks.filter((t) => t.status === 'pending').length,
    tasks: job.tasks.length,
    invocations: job.stats.invocations,
    resumptions: job.stats.resumptions,
    pages: job.stats.pages,
    throttles: job.stats.throttles,
    concurrency: job.limiter?.limit,
  };
  if (state === 'handed-over') obs.metrics.addMetric('JobsHandedOver', MetricUnit.Count, 1);
  if (job.limiter) obs.metrics.addMetric('ConcurrencyLimit', MetricUnit.Count, job.limiter.limit);
  if (manifest) {
    obs.metrics.addMetric('ObjectsArchived', MetricUnit.Count, manifest.objects.length);
    obs.metrics.addMetric('SitesMissing', MetricUnit.Count, manifest.sites.missing.length);
    obs.metrics.addMetric('WalksFailed', MetricUnit.Count, manifest.snapshots.failed.length);
    obs.logger.info('archived', {
      ...line,
      objects: manifest.objects.length,
      sites: {
        ...manifest.sites,
        missing: first(manifest.sites.missing),
        failed: first(manifest.sites.failed),
      },
      snapshots: manifest.snapshots,
    });
  } else {
    obs.logger.info(state === 'running' ? 'another invocation holds the day' : 'day goes on', line);
  }
  return line;
}
