import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from 'zod';
import { ReportStore, s3Client } from '../../lib/aws/index.js';
import { BucketEnv, readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, loggableError, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { archiveSite } from './archive-site.js';

/**
 * report-fetcher's SQS consumer for fanned-out sites. Failed messages are reported one by one
 * (partial batch response), retried by SQS, and land in the dead-letter queue after the last try.
 */
const env = readEnv(ServiceEnv.extend(BucketEnv.shape));
const obs = observability('report-site-worker');
const runtime = serviceRuntime('report-site-worker', obs, env);
const store = new ReportStore(s3Client(), env.REPORT_BUCKET);
const Task = z.object({
  gsm: z.string(),
  site: z.string(),
  day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
});

export const handler = lambda(obs, async (event: SQSEvent, context): Promise<SQSBatchResponse> => {
  runtime.bind(context);
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      const task = Task.parse(JSON.parse(record.body));
      await archiveSite(runtime.client, store, task);
      obs.metrics.addMetric('SitesArchived', MetricUnit.Count, 1);
    } catch (error) {
      obs.logger.error('site failed', { messageId: record.messageId, error: loggableError(error) });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
});
