import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import pLimit from 'p-limit';
import type { ArchivedObject, ReportStore } from '../../lib/aws/index.js';
import { redact, type SkywatchClient } from '../../lib/index.js';
import { fetchSite, type SiteTask, storeSite } from './archive-site.js';

export interface SitesOutcome {
  archived: ArchivedObject[];
  /** Sites that failed here, with the reason (already retried by the client). */
  failed: { site: string; reason: string }[];
  /** Sites handed to the fan-out queue; a site that keeps failing there ends in its DLQ. */
  queued: string[];
}

/**
 * Per-site work of a day. Few sites run here with bounded concurrency; above the threshold the
 * tasks go to SQS so that thousands of sites never bring one invocation near its time limit.
 */
export async function archiveSites(
  deps: { client: SkywatchClient; store: ReportStore; sqs: SQSClient },
  tasks: SiteTask[],
  options: { concurrency: number; fanoutThreshold: number; queueUrl?: string | undefined },
): Promise<SitesOutcome> {
  const outcome: SitesOutcome = { archived: [], failed: [], queued: [] };
  if (options.queueUrl && tasks.length > options.fanoutThreshold) {
    for (let i = 0; i < tasks.length; i += 10) {
      const batch = tasks.slice(i, i + 10);
      const sent = await deps.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: options.queueUrl,
          Entries: batch.map((task, n) => ({ Id: String(n), MessageBody: JSON.stringify(task) })),
        }),
      );
      const failedIds = new Set((sent.Failed ?? []).map((f) => f.Id));
      batch.forEach((task, n) => {
        if (failedIds.has(String(n)))
          outcome.failed.push({ site: task.site, reason: 'could not be queued' });
        else outcome.queued.push(task.site);
      });
    }
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
        outcome.archived.push(await writes(() => storeSite(deps.store, task, report)));
      } catch (error) {
        outcome.failed.push({ site: task.site, reason: redact((error as Error).message) });
      }
    }),
  );
  outcome.archived.sort((a, b) => a.key.localeCompare(b.key));
  return outcome;
}
