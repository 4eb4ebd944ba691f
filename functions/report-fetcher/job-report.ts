import { MetricUnit, type Observability } from '../shared/observability.js';
import type { DayJob } from './day-job.js';
import type { Manifest } from './manifest.js';
import type { JobEvents } from './run-job.js';

/** How a day stands at the end of an invocation. */
export type DayState = 'ended' | 'paused' | 'handed-over' | 'running' | 'taken';

/** Long site lists are cut in log lines (the manifest has them all). */
const first = <T>(xs: T[]) => xs.slice(0, 20);

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

/**
 * A day's line and metrics at the end of an invocation: its progress while it runs, its
 * manifest's counts once it has ended.
 */
export function reportDay(
  obs: Observability,
  job: DayJob,
  state: DayState,
  manifest: Manifest | undefined,
) {
  const pending = job.tasks.filter((t) => t.status === 'pending').length;
  const line = {
    gsm: job.gsm,
    date: job.date,
    state,
    complete: manifest?.complete ?? false,
    pending,
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
