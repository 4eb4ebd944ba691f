import pLimit from 'p-limit';
import type { ArchivedObject, ReportStore, WorkQueue } from '../../lib/aws/index.js';
import { redact, type SkywatchClient } from '../../lib/index.js';
import { fetchSite, type SiteTask, storeSite } from './archive-site.js';

export interface SitesOutcome {
  /** Sites archived here, with what was written for each. */
  archived: { site: string; objects: ArchivedObject[] }[];
  /** Sites that failed here, with the reason (already retried by the client or the queue). */
  failed: { site: string; reason: string }[];
  /** Sites handed to the fan-out queue; their workers record how each one ends. */
  queued: string[];
}

/**
 * Per-site work of a day. Few sites run here with bounded concurrency; above the threshold, and
 * when there is a queue, the tasks go to SQS so that thousands of sites never bring one
 * invocation near its time limit.
 */
export async function archiveSites(
  deps: { client: SkywatchClient; store: ReportStore; queue?: WorkQueue<SiteTask> | undefined },
  tasks: SiteTask[],
  options: { concurrency: number; fanoutThreshold: number },
): Promise<SitesOutcome> {
  const outcome: SitesOutcome = { archived: [], failed: [], queued: [] };
  if (deps.queue && tasks.length > options.fanoutThreshold) {
    const sent = await deps.queue.send(tasks);
    outcome.queued = sent.sent.map((t) => t.site);
    outcome.failed = sent.unsent.map((u) => ({
      site: u.item.site,
      reason: `could not be queued: ${u.code}: ${u.reason}`,
    }));
    return outcome;
  }
  // Separate pools: a service slot frees as soon as the service answers, so storage latency
  // never holds back the next call (the service is the slow, rate-limited side).
  const calls = pLimit(options.concurrency);
  const writes = pLimit(options.concurrency);
  await Promise.all(
    tasks.map(async (task) => {
      try {
        const report = await calls(() => fetchSite(deps.client, task));
        const object = await writes(() => storeSite(deps.store, task, report));
        outcome.archived.push({ site: task.site, objects: [object] });
      } catch (error) {
        outcome.failed.push({ site: task.site, reason: redact((error as Error).message) });
      }
    }),
  );
  outcome.archived.sort((a, b) => a.site.localeCompare(b.site));
  return outcome;
}
