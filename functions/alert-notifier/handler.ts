import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { type AlertEventRow, alertEventRow } from '../../lib/alerts/index.js';
import {
  processFifoBatch,
  SecretStore,
  StateStore,
  s3Client,
  secretsClient,
  sqsClient,
} from '../../lib/aws/index.js';
import * as z from '../../lib/zod.js';
import { alertHistory } from '../shared/alert-history.js';
import { BucketEnv, intSetting, readEnv } from '../shared/env.js';
import { lambda, loggableError, MetricUnit, observability } from '../shared/observability.js';
import { NotifierSecret, protectSecrets } from './destinations.js';
import { deliverEvent, readDelivery, UnreadableAlertError } from './notify.js';
import { deliveryRetryMs } from './retry-schedule.js';
import { isTestAlertEvent, runTestAlertEvent, type TestAlertEvent } from './test-alert.js';

/**
 * alert-notifier: the alerter queues each health alert event once per destination on a FIFO
 * queue (lib/aws/delivery-queue.ts); this delivers them to Slack, Teams, PagerDuty and a signed
 * webhook, as configured in its secret. One message group per destination and alert, so a
 * resolve never overtakes its trigger and a failing destination holds back only its own
 * events. A failed delivery comes back after a back-off of seconds to minutes (and never before
 * the receiver's Retry-After); SQS moves it to the dead-letter queue after maxReceiveCount
 * receives. A destination that refuses an event (its contract: ./contracts.ts) gets no retry:
 * the event goes to the dead-letter queue at once, with the reason, for an operator's redrive.
 */
const env = readEnv(
  z.extend(BucketEnv, {
    NOTIFIER_SECRET_ARN: z.string().check(z.minLength(1)),
    NOTIFIER_QUEUE_URL: z.string().check(z.minLength(1)),
    NOTIFIER_DLQ_URL: z.string().check(z.minLength(1)),
    NOTIFY_MAX_ATTEMPTS: intSetting({ min: 1, max: 10, default: 3 }),
    NOTIFY_ATTEMPT_TIMEOUT_MS: intSetting({ min: 100, max: 60_000, default: 5_000 }),
    NOTIFY_BASE_DELAY_MS: intSetting({ min: 0, max: 60_000, default: 500 }),
    NOTIFY_MAX_DELAY_MS: intSetting({ min: 0, max: 300_000, default: 5_000 }),
    /** Back-off between receives of a failed delivery (docs/operations.md, "Delivery"). */
    NOTIFY_RETRY_BASE_SECONDS: intSetting({ min: 1, max: 3600, default: 30 }),
    NOTIFY_RETRY_MAX_SECONDS: intSetting({ min: 1, max: 43_200, default: 900 }),
    /** The queue's maxReceiveCount: on that receive a failure is dead-lettered here, in order. */
    NOTIFIER_MAX_RECEIVES: intSetting({ min: 1, max: 1000, default: 12 }),
  }),
);
const obs = await observability('alert-notifier');
const state = new StateStore(s3Client(), env.REPORT_BUCKET);
const secrets = new SecretStore(secretsClient());
const sqs = sqsClient();
const history = alertHistory(obs, env.REPORT_BUCKET, 'notifier');

const options = {
  maxAttempts: env.NOTIFY_MAX_ATTEMPTS,
  attemptTimeoutMs: env.NOTIFY_ATTEMPT_TIMEOUT_MS,
  baseDelayMs: env.NOTIFY_BASE_DELAY_MS,
  maxDelayMs: env.NOTIFY_MAX_DELAY_MS,
  // Longer than one delivery can take with every retry, so a live sender is never overtaken.
  leaseMs:
    env.NOTIFY_MAX_ATTEMPTS * (env.NOTIFY_ATTEMPT_TIMEOUT_MS + env.NOTIFY_MAX_DELAY_MS) + 30_000,
};
const schedule = {
  baseMs: env.NOTIFY_RETRY_BASE_SECONDS * 1000,
  maxMs: env.NOTIFY_RETRY_MAX_SECONDS * 1000,
  minMs: Math.min(5_000, env.NOTIFY_RETRY_BASE_SECONDS * 1000),
};

/** Keeps a message for an operator, in its own group, so a redrive restores its order. */
async function deadLetter(record: SQSRecord, reason: string): Promise<void> {
  const destination = record.messageAttributes.destination?.stringValue;
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: env.NOTIFIER_DLQ_URL,
      MessageBody: record.body,
      MessageGroupId: record.attributes.MessageGroupId ?? record.messageId,
      // A redriven message has a new id, so a second refusal is kept again.
      MessageDeduplicationId: record.messageId,
      MessageAttributes: {
        ...(destination ? { destination: { DataType: 'String', StringValue: destination } } : {}),
        reason: { DataType: 'String', StringValue: reason.slice(0, 1000) },
      },
    }),
  );
}

const metric = (destination: string, name: string) => {
  const m = obs.metrics.singleMetric();
  m.addDimension('Destination', destination);
  m.addMetric(name, MetricUnit.Count, 1);
};

const secret = () => secrets.read(env.NOTIFIER_SECRET_ARN, NotifierSecret).then(protectSecrets);

export const handler = lambda(obs, async (event: SQSEvent | TestAlertEvent, context) => {
  // No attempt starts that could outlive the invocation: what is left goes back to the queue.
  const remainingMs = () => context.getRemainingTimeInMillis();
  if (isTestAlertEvent(event)) {
    // The secret as it is now: whoever tests a destination has usually just set it.
    secrets.invalidate(env.NOTIFIER_SECRET_ARN);
    obs.metrics.addMetric('TestAlerts', MetricUnit.Count, 1);
    return runTestAlertEvent(event, secret, { ...options, remainingMs });
  }
  obs.metrics.addMetric('AlertMessages', MetricUnit.Count, event.Records.length);
  const rows: AlertEventRow[] = [];
  const deliver = async (record: SQSRecord) => {
    let message: ReturnType<typeof readDelivery>;
    try {
      message = readDelivery(record.body);
    } catch (error) {
      // Retrying cannot mend it, and it would hold its group back: straight to the operator.
      if (!(error instanceof UnreadableAlertError)) throw error;
      obs.logger.error('unreadable delivery: dead-lettered', { messageId: record.messageId });
      await deadLetter(record, error.message);
      return;
    }
    // The dead-letter queue's own attribute: an operator's redrive after a refusal.
    const redrive = record.messageAttributes.reason !== undefined;
    const lastTry = Number(record.attributes.ApproximateReceiveCount) >= env.NOTIFIER_MAX_RECEIVES;
    await deliverEvent(
      {
        state,
        secret,
        deadLetter: (reason) => deadLetter(record, reason),
        metric,
        outcome: ({ event, status, at }) =>
          rows.push(
            alertEventRow(message.alert, {
              at,
              event,
              status,
              destination: message.destination,
              route: message.schema === 'skywatch.delivery/v2' ? message.route.name : undefined,
            }),
          ),
      },
      message,
      { ...options, remainingMs },
      { redrive, lastTry },
    );
  };
  const response = await processFifoBatch(event, deliver, {
    sqs,
    queueUrl: env.NOTIFIER_QUEUE_URL,
    retryDelayMs: (receives, error) => deliveryRetryMs(schedule, receives, error),
    onError: (record, error) =>
      obs.logger.warn('delivery failed: retried later', {
        messageId: record.messageId,
        group: record.attributes.MessageGroupId,
        error: loggableError(error),
      }),
    context,
  });
  // After the batch: the deliveries are out whatever becomes of their history.
  await history.write(context.awsRequestId, rows, Date.now());
  return response;
});
