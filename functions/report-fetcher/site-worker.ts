import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import * as z from '../../lib/zod.js';
import { readEnv, ServiceEnv } from '../shared/env.js';
import { lambda, loggableError, MetricUnit, observability } from '../shared/observability.js';
import { serviceRuntime } from '../shared/runtime.js';
import { ArchiveEnv } from './archive-env.js';
import { handleSiteMessage } from './site-message.js';
import { archiveStores } from './stores.js';

/**
 * report-fetcher's SQS consumer for fanned-out sites. Failed messages are reported one by one
 * (partial batch response), retried by SQS, and land in the dead-letter queue after the last try.
 */
const env = readEnv(z.extend(ServiceEnv, ArchiveEnv.shape));
const obs = observability('report-site-worker');
const runtime = serviceRuntime('report-site-worker', obs, env);
const deps = {
  client: runtime.client,
  ...archiveStores(env.REPORT_BUCKET, env.ARCHIVE_GZIP_LEVEL),
  warn: (message: string, error: unknown) =>
    obs.logger.warn(message, { error: loggableError(error) }),
};

export const handler = lambda(obs, async (event: SQSEvent, context): Promise<SQSBatchResponse> => {
  runtime.bind(context);
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    try {
      await handleSiteMessage(deps, record.body);
      obs.metrics.addMetric('SitesArchived', MetricUnit.Count, 1);
    } catch (error) {
      obs.logger.error('site failed', { messageId: record.messageId, error: loggableError(error) });
      obs.metrics.addMetric('SitesFailed', MetricUnit.Count, 1);
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
});
