import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import * as z from '../../lib/zod.js';
import { ContinueMessage, JobTakenError, jobEnded, mayTakeOn } from '../report-fetcher/day-job.js';
import { jobEvents, reportDay, settleManifest } from '../report-fetcher/manifest.js';
import { archiveDeps, jobSettings, runDay } from '../report-fetcher/run-job.js';
import { ArchiveEnv, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, loggableError, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';

/**
 * report-fetcher's archive worker: goes on with a day's job that an earlier invocation handed
 * over on the archive queue (`handOver` in report-fetcher/day-job.ts), until it ends or this
 * invocation must stop too, then hands it over again. Its own Lambda, it runs the report
 * fetcher's job as the fetcher does (report-fetcher/run-job.ts). A message that fails is retried
 * by SQS (partial batch response) and, after the queue's last try, moves to the dead-letter
 * queue; the job stays saved, and the next daily run takes it over once it is stale.
 */
const env = readEnv(z.extend(ServiceEnv, ArchiveEnv.shape));
const obs = await observability('report-archive-worker');
const runtime = serviceRuntime('report-archive-worker', obs, env);
const deps = archiveDeps(env, runtime.client);

/**
 * One hand-over message. Returning is success (SQS deletes it): the job ran, ended, or belongs
 * to someone else now. A throw makes it a batch item failure, tried again by SQS.
 */
async function continueJob(
  record: SQSRecord,
  context: Context,
  events: ReturnType<typeof jobEvents>,
): Promise<void> {
  try {
    const message = z.parse(ContinueMessage, JSON.parse(record.body));
    const found = await deps.jobs.read(message.gsm, message.day);
    const stale = { now: Date.now(), staleMs: env.JOB_STALE_MINUTES * 60_000 };
    if (!found || !mayTakeOn(found.job, message, record.messageId, stale)) {
      obs.logger.info('a newer hand-over holds the job; message dropped', { ...message });
      return;
    }
    if (jobEnded(found.job)) {
      await settleManifest(deps.manifests, found.job);
      return;
    }
    const now = Date.now();
    const held = await deps.jobs.claim(found, record.messageId, now);
    reportDay(obs, await runDay(deps, held, jobSettings(env, context, now), events));
  } catch (error) {
    if (error instanceof JobTakenError) {
      obs.logger.warn('the job was taken over by another invocation', {
        error: loggableError(error),
      });
      return;
    }
    obs.logger.error('job failed', { messageId: record.messageId, error: loggableError(error) });
    // Powertools reads the failure's message: hand it an Error whatever was thrown.
    throw error instanceof Error ? error : new Error(String(error));
  }
}

export const handler = lambda(obs, async (event: SQSEvent, context): Promise<SQSBatchResponse> => {
  runtime.bind(context);
  const events = jobEvents(obs);
  // One message after another (the stack hands out one at a time anyway): each job runs until
  // this invocation's deadline, so two at once would share it and the limiter. A batch that
  // failed whole is answered like any other, not thrown. A processor per invocation: it keeps
  // the batch's records and failures, and local runs may invoke the handler concurrently.
  return processPartialResponse(
    event,
    (record: SQSRecord) => continueJob(record, context, events),
    new BatchProcessor(EventType.SQS),
    { processInParallel: false, throwOnFullBatchFailure: false },
  );
});
