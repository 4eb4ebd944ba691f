import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import {
  SecretStore,
  StateStore,
  s3Client,
  secretsClient,
  sqsClient,
} from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { BucketEnv, intSetting, readEnv } from '../shared/env.js';
import { lambda, loggableError, MetricUnit, observability } from '../shared/observability.js';
import { DestinationName, NotifierSecret } from './destinations.js';
import { notify, readAlert } from './notify.js';

/**
 * alert-notifier: SNS → SQS → here. Delivers each health alert event to Slack, Teams,
 * PagerDuty and a signed webhook, as configured in its secret. A message whose delivery should
 * be tried again is reported in batchItemFailures; SQS moves it to the dead-letter queue after
 * maxReceiveCount receives. A destination that refuses an event (4xx) gets no retry: the event
 * goes to the dead-letter queue at once, with the destination and the reason.
 */
const env = readEnv(
  z.extend(BucketEnv, {
    NOTIFIER_SECRET_ARN: z.string().check(z.minLength(1)),
    NOTIFIER_DLQ_URL: z.string().check(z.minLength(1)),
    NOTIFY_MAX_ATTEMPTS: intSetting({ min: 1, max: 10, default: 4 }),
    NOTIFY_ATTEMPT_TIMEOUT_MS: intSetting({ min: 100, max: 60_000, default: 5_000 }),
    NOTIFY_BASE_DELAY_MS: intSetting({ min: 0, max: 60_000, default: 500 }),
    NOTIFY_MAX_DELAY_MS: intSetting({ min: 0, max: 300_000, default: 10_000 }),
  }),
);
const obs = await observability('alert-notifier');
const state = new StateStore(s3Client(), env.REPORT_BUCKET);
const secrets = new SecretStore(secretsClient());
const sqs = sqsClient();

const options = {
  maxAttempts: env.NOTIFY_MAX_ATTEMPTS,
  attemptTimeoutMs: env.NOTIFY_ATTEMPT_TIMEOUT_MS,
  baseDelayMs: env.NOTIFY_BASE_DELAY_MS,
  maxDelayMs: env.NOTIFY_MAX_DELAY_MS,
  // Longer than one delivery can take with every retry, so a live sender is never overtaken.
  leaseMs:
    env.NOTIFY_MAX_ATTEMPTS * (env.NOTIFY_ATTEMPT_TIMEOUT_MS + env.NOTIFY_MAX_DELAY_MS) + 30_000,
};

const deps = {
  state,
  secret: () => secrets.read(env.NOTIFIER_SECRET_ARN, NotifierSecret),
  deadLetter: async (body: string, destination: string, reason: string) => {
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: env.NOTIFIER_DLQ_URL,
        MessageBody: body,
        MessageAttributes: {
          destination: { DataType: 'String', StringValue: destination },
          reason: { DataType: 'String', StringValue: reason.slice(0, 1000) },
        },
      }),
    );
  },
  metric: (destination: string, name: string) => {
    const metric = obs.metrics.singleMetric();
    metric.addDimension('Destination', destination);
    metric.addMetric(name, MetricUnit.Count, 1);
  },
};

export const handler = lambda(obs, async (event: SQSEvent, context): Promise<SQSBatchResponse> => {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  // No attempt starts that could outlive the invocation: what is left goes back to the queue.
  const remainingMs = () => context.getRemainingTimeInMillis();
  obs.metrics.addMetric('AlertMessages', MetricUnit.Count, event.Records.length);
  for (const record of event.Records) {
    try {
      const alert = readAlert(record.body);
      if (!alert) {
        obs.logger.info('not a health alert: ignored', { messageId: record.messageId });
        continue;
      }
      // The dead-letter queue's own attribute: a redrive after a destination refused it.
      const refusedBy = DestinationName.safeParse(
        record.messageAttributes.destination?.stringValue,
      ).data;
      const complete = await notify(
        deps,
        record.body,
        alert,
        { ...options, remainingMs },
        { refusedBy },
      );
      if (!complete) batchItemFailures.push({ itemIdentifier: record.messageId });
    } catch (error) {
      obs.logger.error('alert not delivered', {
        messageId: record.messageId,
        error: loggableError(error),
      });
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
