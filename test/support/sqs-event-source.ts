import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';

export interface DrainOutcome {
  invocations: number;
  /** Messages the handler was given, retries included. */
  deliveries: number;
  /** Deliveries that failed (reported in batchItemFailures, or the whole batch threw). */
  failures: number;
}

/** A received message as Lambda's SQS event source hands it to the handler. */
export function toRecord(m: Message, queueArn: string): SQSRecord {
  const a = m.Attributes ?? {};
  return {
    messageId: m.MessageId ?? '',
    receiptHandle: m.ReceiptHandle ?? '',
    body: m.Body ?? '',
    attributes: {
      ApproximateReceiveCount: a.ApproximateReceiveCount ?? '1',
      SentTimestamp: a.SentTimestamp ?? '0',
      SenderId: a.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: a.ApproximateFirstReceiveTimestamp ?? '0',
      // FIFO queues: what Lambda passes on of the message's group and order.
      ...(a.MessageGroupId ? { MessageGroupId: a.MessageGroupId } : {}),
      ...(a.MessageDeduplicationId ? { MessageDeduplicationId: a.MessageDeduplicationId } : {}),
      ...(a.SequenceNumber ? { SequenceNumber: a.SequenceNumber } : {}),
    },
    messageAttributes: Object.fromEntries(
      Object.entries(m.MessageAttributes ?? {}).map(([name, v]) => [
        name,
        { stringValue: v.StringValue, dataType: v.DataType ?? 'String' },
      ]),
    ),
    md5OfBody: m.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: 'us-east-1',
  };
}

/**
 * What Lambda's SQS event source mapping does (with ReportBatchItemFailures, as the stack
 * configures it), on a real local queue: receive a batch, invoke the handler with an SQSEvent
 * made of it, delete the messages it did not report as failed, and let the others come back.
 * A failed message's visibility timeout is ended at once (ChangeMessageVisibility 0) rather
 * than waited out, so the queue's redrive policy moves it to the dead-letter queue after
 * maxReceiveCount receives, as it would in AWS. As in Lambda, a thrown error or a reported
 * identifier that is not in the batch fails the whole batch. Stops when the queue is empty.
 */
export async function drainQueue(
  sqs: SQSClient,
  queueUrl: string,
  handler: (event: SQSEvent) => Promise<SQSBatchResponse | undefined>,
  options: { batchSize?: number; maxInvocations?: number; once?: boolean } = {},
): Promise<DrainOutcome> {
  const attributes = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }),
  );
  const queueArn = attributes.Attributes?.QueueArn ?? '';
  const outcome: DrainOutcome = { invocations: 0, deliveries: 0, failures: 0 };
  for (;;) {
    // once: one receive and one invocation, whatever is left in the queue.
    if (options.once && outcome.invocations === 1) return outcome;
    if (outcome.invocations >= (options.maxInvocations ?? 100))
      throw new Error(`queue not drained after ${outcome.invocations} invocations`);
    const received = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: options.batchSize ?? 10,
        WaitTimeSeconds: 0,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return outcome;
    const records = messages.map((m) => toRecord(m, queueArn));
    outcome.invocations++;
    outcome.deliveries += records.length;
    let failed: Set<string>;
    try {
      const answer = await handler({ Records: records });
      const ids = (answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      const known = new Set(records.map((r) => r.messageId));
      failed = ids.every((id) => known.has(id)) ? new Set(ids) : known;
    } catch {
      failed = new Set(records.map((r) => r.messageId));
    }
    outcome.failures += failed.size;
    const done = records.filter((r) => !failed.has(r.messageId));
    const retry = records.filter((r) => failed.has(r.messageId));
    const entries = (rs: SQSRecord[]) =>
      rs.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle }));
    if (done.length > 0)
      await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries(done) }));
    if (retry.length > 0)
      await sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: queueUrl,
          Entries: entries(retry).map((e) => ({ ...e, VisibilityTimeout: 0 })),
        }),
      );
  }
}
