import { setTimeout as sleep } from 'node:timers/promises';
import {
  SendMessageBatchCommand,
  type SendMessageBatchCommandOutput,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { QueueError } from './errors.js';

/** SQS takes at most ten entries per SendMessageBatch call. */
const BATCH_ENTRIES = 10;
/** 256 KiB, the smallest message size limit a queue can have by default; batches stay under it. */
const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024;

export interface WorkQueueOptions<T = unknown> {
  /** Sends of an entry SQS failed on its side (not the sender's fault), the first included. @default 3 */
  maxAttempts?: number;
  /** First wait before resending failed entries, in ms; doubles per round. @default 100 */
  baseDelayMs?: number;
  /** Largest message (JSON of one item) and largest batch, in bytes. @default 262144 */
  maxMessageBytes?: number;
  /** For tests: how to wait between rounds. */
  sleep?: (ms: number) => Promise<unknown>;
  /**
   * What a FIFO queue needs of each message (its group and deduplication id), and string
   * attributes a consumer or an operator reads without parsing the body. An entry SQS failed
   * is sent again after the others of its call, so items whose order matters within a group
   * go in separate `send` calls.
   */
  envelope?: (item: T) => MessageEnvelope;
}

/** Per-message settings beside the body (see {@link WorkQueueOptions.envelope}). */
export interface MessageEnvelope {
  groupId?: string;
  deduplicationId?: string;
  attributes?: Record<string, string>;
}

/** An item SQS did not take, with SQS's error code (or ours) and why. */
export interface UnsentItem<T> {
  item: T;
  code: string;
  reason: string;
  /** True when resending cannot help (the message itself is at fault). */
  senderFault: boolean;
}

export interface SendOutcome<T> {
  sent: T[];
  unsent: UnsentItem<T>[];
}

interface Pending<T> {
  item: T;
  body: string;
}

/**
 * Work items to an SQS queue as JSON messages: ten a SendMessageBatch call (and never more
 * bytes than a message may have), entries that SQS failed on its side sent again with a
 * doubling wait, entries at fault (too large, refused) reported at once. A call that fails as a
 * whole (no such queue, access denied, network) raises QueueError after the SDK's own retries;
 * the items of earlier calls are already sent, so a caller that repeats the work sends them
 * again, which at-least-once consumers must tolerate anyway.
 *
 * @example
 * const queue = new WorkQueue<SiteTask>(clients.sqs, process.env.ARCHIVE_QUEUE_URL);
 * const { sent, unsent } = await queue.send(tasks);
 * for (const u of unsent) logger.warn('not queued', { site: u.item.site, code: u.code });
 */
export class WorkQueue<T> {
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxBytes: number;
  private readonly wait: (ms: number) => Promise<unknown>;
  private readonly envelope: (item: T) => MessageEnvelope;

  constructor(
    private readonly sqs: SQSClient,
    readonly queueUrl: string,
    options: WorkQueueOptions<T> = {},
  ) {
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.baseDelayMs = options.baseDelayMs ?? 100;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.wait = options.sleep ?? sleep;
    this.envelope = options.envelope ?? (() => ({}));
  }

  /** Sends every item; answers which were sent and which were not (and why). */
  async send(items: readonly T[]): Promise<SendOutcome<T>> {
    const outcome: SendOutcome<T> = { sent: [], unsent: [] };
    let pending: Pending<T>[] = [];
    for (const item of items) {
      const body = JSON.stringify(item);
      if (Buffer.byteLength(body) > this.maxBytes) {
        outcome.unsent.push({
          item,
          code: 'MessageTooLong',
          reason: `message of ${Buffer.byteLength(body)} bytes exceeds ${this.maxBytes}`,
          senderFault: true,
        });
      } else pending.push({ item, body });
    }
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > 1) await this.wait(this.baseDelayMs * 2 ** (attempt - 2));
      const retry: Pending<T>[] = [];
      for (const batch of this.batches(pending)) {
        const failures = await this.sendBatch(batch);
        batch.forEach((p, n) => {
          const failure = failures.get(n);
          if (!failure) outcome.sent.push(p.item);
          else if (failure.senderFault || attempt >= this.maxAttempts) outcome.unsent.push(failure);
          else retry.push(p);
        });
      }
      pending = retry;
    }
    return outcome;
  }

  /** Up to ten entries a batch and no more bytes than one message may have. */
  private *batches(pending: Pending<T>[]): Generator<Pending<T>[]> {
    let batch: Pending<T>[] = [];
    let bytes = 0;
    for (const p of pending) {
      const size = Buffer.byteLength(p.body);
      if (batch.length === BATCH_ENTRIES || (batch.length > 0 && bytes + size > this.maxBytes)) {
        yield batch;
        batch = [];
        bytes = 0;
      }
      batch.push(p);
      bytes += size;
    }
    if (batch.length > 0) yield batch;
  }

  private entry(p: Pending<T>, n: number) {
    const { groupId, deduplicationId, attributes } = this.envelope(p.item);
    return {
      Id: String(n),
      MessageBody: p.body,
      ...(groupId ? { MessageGroupId: groupId } : {}),
      ...(deduplicationId ? { MessageDeduplicationId: deduplicationId } : {}),
      ...(attributes
        ? {
            MessageAttributes: Object.fromEntries(
              Object.entries(attributes).map(([k, v]) => [
                k,
                { DataType: 'String', StringValue: v },
              ]),
            ),
          }
        : {}),
    };
  }

  /**
   * One SendMessageBatch call; answers the entries SQS did not take, by their batch index. An
   * entry SQS names neither as successful nor as failed counts as failed on its side.
   */
  private async sendBatch(batch: Pending<T>[]): Promise<Map<number, UnsentItem<T>>> {
    let answer: SendMessageBatchCommandOutput;
    try {
      answer = await this.sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((p, n) => this.entry(p, n)),
        }),
      );
    } catch (error) {
      throw new QueueError(
        `Cannot send to queue ${this.queueUrl}: ${(error as Error).name}`,
        this.queueUrl,
        { cause: error },
      );
    }
    const accepted = new Set((answer.Successful ?? []).map((s) => s.Id));
    const refused = new Map((answer.Failed ?? []).map((f) => [f.Id, f]));
    const failures = new Map<number, UnsentItem<T>>();
    batch.forEach((p, n) => {
      if (accepted.has(String(n))) return;
      const f = refused.get(String(n));
      failures.set(n, {
        item: p.item,
        code: f?.Code ?? 'NoAnswer',
        reason: f?.Message ?? 'SQS answered neither success nor failure for this entry',
        senderFault: f?.SenderFault === true,
      });
    });
    return failures;
  }
}
