import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from '../../lib/zod.js';
import { readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, loggableError, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { ArchiveEnv } from './archive-env.js';
import { ContinueMessage, mayTakeOn } from './continue.js';
import { jobEnded } from './day-job.js';
import { jobSettings, runAndHandOver } from './invocation.js';
import { jobEvents, reportDay } from './job-report.js';
import { JobTakenError } from './job-store.js';
import { settleManifest } from './manifest.js';
import { archiveDeps } from './stores.js';

/**
 * report-fetcher's archive worker: goes on with a day's job that an earlier invocation handed
 * over on the archive queue (continue.ts), until it ends or this invocation must stop too, then
 * hands it over again. A message that fails is retried by SQS (partial batch response) and, after
 * the queue's last try, moves to the dead-letter queue; the job stays saved, and the next daily
 * run takes it over once it is stale.
 */
const env = readEnv(z.extend(ServiceEnv, ArchiveEnv.shape));
const obs = await observability('report-archive-worker');
const runtime = serviceRuntime('report-archive-worker', obs, env);
const deps = archiveDeps(env, runtime.client);

export const handler = lambda(obs, async (event: SQSEvent, context): Promise<SQSBatchResponse> => {
  runtime.bind(context);
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const events = jobEvents(obs);
  for (const record of event.Records) {
    try {
      const message = z.parse(ContinueMessage, JSON.parse(record.body));
      const found = await deps.jobs.read(message.gsm, message.day);
      const stale = { now: Date.now(), staleMs: env.JOB_STALE_MINUTES * 60_000 };
      if (!found || !mayTakeOn(found.job, message, record.messageId, stale)) {
        obs.logger.info('a newer hand-over holds the job; message dropped', { ...message });
        continue;
      }
      if (jobEnded(found.job)) {
        await settleManifest(deps.manifests, found.job);
        continue;
      }
      const now = Date.now();
      const held = await deps.jobs.claim(found, record.messageId, now);
      const outcome = await runAndHandOver(deps, held, jobSettings(env, context, now), events);
      reportDay(obs, outcome.held.job, outcome.state, outcome.manifest);
    } catch (error) {
      if (error instanceof JobTakenError) {
        obs.logger.warn('the job was taken over by another invocation', {
          error: loggableError(error),
        });
        continue;
      }
      obs.logger.error('job failed', { messageId: record.messageId, error: loggableError(error) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
});
