import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { ChangeMessageVisibilityCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { SkywatchError } from '../errors/index.js';

/** A message not tried because an earlier one of its group failed in the same batch. */
export class HeldInGroupError extends SkywatchError {
  constructor(readonly group: string) {
    super(`held behind an earlier message of group ${group} that failed`);
    this.name = 'HeldInGroupError';
  }
}

export interface FifoBatchOptions {
  sqs: SQSClient;
  queueUrl: string;
  /**
   * When to try a failed message again, in ms, from how often SQS handed it out and what
   * failed: the queue's visibility timeout is meant for a consumer that died, not for this.
   */
  retryDelayMs: (receiveCount: number, error: unknown) => number;
  /** Told of each failure and of a visibility change SQS refused (the message comes back later). */
  onError?: (record: SQSRecord, error: unknown) => void;
  context?: Context;
}

/** SQS's longest visibility timeout: 12 hours. */
const MAX_VISIBILITY_S = 43_200;

/**
 * Processes a batch of a FIFO queue with Powertools Batch (partial batch responses), its
 * message groups in parallel and each group's messages in order. Powertools' own FIFO processor
 * would handle the whole batch one message at a time, so one hung receiver would delay every
 * other group; here only its own group waits. A message that fails is made visible again after
 * `retryDelayMs` (ChangeMessageVisibility), and the later messages of its group in the batch
 * fail with it after at least as long, so the group is handed out again whole and in order.
 *
 * @example
 * export const handler = (event, context) =>
 *   processFifoBatch(event, (record) => deliver(record.body), { sqs, queueUrl, retryDelayMs, context });
 */
export async function processFifoBatch(
  event: SQSEvent,
  handle: (record: SQSRecord) => Promise<void>,
  options: FifoBatchOptions,
): Promise<SQSBatchResponse> {
  const tails = new Map<string, Promise<void>>();
  const delays = new Map<string, number>();
  const retryLater = async (record: SQSRecord, group: string, error: unknown) => {
    options.onError?.(record, error);
    const receives = Number(record.attributes.ApproximateReceiveCount) || 1;
    const asked =
      error instanceof HeldInGroupError ? 0 : Math.max(0, options.retryDelayMs(receives, error));
    const delayMs = Math.max(asked, delays.get(group) ?? 0);
    delays.set(group, delayMs);
    const seconds = Math.min(MAX_VISIBILITY_S, Math.ceil(delayMs / 1000));
    await options.sqs
      .send(
        new ChangeMessageVisibilityCommand({
          QueueUrl: options.queueUrl,
          ReceiptHandle: record.receiptHandle,
          VisibilityTimeout: seconds,
        }),
      )
      .catch((refused: unknown) => options.onError?.(record, refused));
  };
  const inGroupOrder = (record: SQSRecord): Promise<void> => {
    const group = record.attributes.MessageGroupId ?? record.messageId;
    const previous = tails.get(group);
    const mine = (async () => {
      if (
        previous &&
        !(await previous.then(
          () => true,
          () => false,
        ))
      )
        throw new HeldInGroupError(group);
      await handle(record);
    })().catch(async (error: unknown) => {
      await retryLater(record, group, error);
      throw error;
    });
    tails.set(group, mine);
    return mine;
  };
  return processPartialResponse(event, inGroupOrder, new BatchProcessor(EventType.SQS), {
    ...(options.context ? { context: options.context } : {}),
    throwOnFullBatchFailure: false,
  });
}
