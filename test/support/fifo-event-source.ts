import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Clock } from '../../lib/http/clock.js';
import { toRecord } from './sqs-event-source.js';

/** Longer than any test: moto, whose clock is real, never shows a message again by itself. */
const HELD_S = 3_600;

export interface FifoDrainOutcome {
  invocations: number;
  deliveries: number;
  failures: number;
  /** Messages handed out again because their visibility ended on the clock. */
  redelivered: number;
}

/**
 * What Lambda's event source does with the notifier's FIFO queue, on a real local queue (moto),
 * with the queue's visibility timeouts kept on a clock instead of waited out. Receive a batch,
 * invoke the handler, delete what it did not report as failed. A failed message becomes visible
 * again only when its visibility ends: the timeout the handler set itself
 * (ChangeMessageVisibility, seen as the SDK sends it to moto), else the queue's own, as for an
 * invocation that threw or was cut. Until then its message group stays held, as SQS holds it.
 * The redrive policy (maxReceiveCount) is the queue's, enforced by moto on receive.
 */
export class FifoEventSource {
  private queueArn = '';
  private visibilityS = 30;
  /** Messages received and not deleted: when each may be handed out again. */
  private readonly inFlight = new Map<string, { receipt: string; visibleAt: number }>();
  private readonly asked = new Map<string, number>();
  /** Every visibility timeout the handler asked for, in seconds, in order. */
  readonly retries: number[] = [];

  constructor(
    private readonly sqs: SQSClient,
    readonly queueUrl: string,
    private readonly handler: (event: SQSEvent) => Promise<SQSBatchResponse | undefined>,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs until no message is visible. `waitForRetries`: then let the clock run to the next
   * visibility end and go on, until the queue holds nothing at all.
   */
  async drain(
    options: { waitForRetries?: boolean; maxInvocations?: number; once?: boolean } = {},
  ): Promise<FifoDrainOutcome> {
    await this.describe();
    const outcome: FifoDrainOutcome = {
      invocations: 0,
      deliveries: 0,
      failures: 0,
      redelivered: 0,
    };
    for (;;) {
      if (options.once && outcome.invocations === 1) return outcome;
      if (outcome.invocations >= (options.maxInvocations ?? 200))
        throw new Error(`queue not drained after ${outcome.invocations} invocations`);
      outcome.redelivered += await this.releaseDue();
      const records = await this.receive();
      if (records.length === 0) {
        const next = Math.min(...[...this.inFlight.values()].map((m) => m.visibleAt));
        if (!options.waitForRetries || !Number.isFinite(next)) return outcome;
        await this.clock.sleep(Math.max(0, next - this.clock.now()));
        continue;
      }
      outcome.invocations++;
      outcome.deliveries += records.length;
      outcome.failures += await this.invoke(records);
    }
  }

  /** Makes visible the messages whose visibility ended by the clock; answers how many. */
  async releaseDue(): Promise<number> {
    const due = [...this.inFlight].filter(([, m]) => m.visibleAt <= this.clock.now());
    if (due.length === 0) return 0;
    for (let i = 0; i < due.length; i += 10) {
      const chunk = due.slice(i, i + 10);
      await this.sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: chunk.map(([, m], n) => ({
            Id: String(n),
            ReceiptHandle: m.receipt,
            VisibilityTimeout: 0,
          })),
        }),
      );
    }
    for (const [id] of due) this.inFlight.delete(id);
    return due.length;
  }

  /** Messages received and waiting for their visibility to end. */
  pending(): number {
    return this.inFlight.size;
  }

  private async describe(): Promise<void> {
    if (this.queueArn) return;
    const out = await this.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: this.queueUrl,
        AttributeNames: ['QueueArn', 'VisibilityTimeout'],
      }),
    );
    this.queueArn = out.Attributes?.QueueArn ?? '';
    this.visibilityS = Number(out.Attributes?.VisibilityTimeout ?? 30);
  }

  private async receive(): Promise<SQSRecord[]> {
    const received = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
        VisibilityTimeout: HELD_S,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
    );
    return (received.Messages ?? []).map((m) => toRecord(m, this.queueArn));
  }

  /** One invocation; answers how many of its messages failed. */
  private async invoke(records: SQSRecord[]): Promise<number> {
    const stop = watchVisibility(this.asked);
    let failed: Set<string>;
    try {
      const answer = await this.handler({ Records: records });
      const ids = (answer?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      const known = new Set(records.map((r) => r.messageId));
      failed = ids.every((id) => known.has(id)) ? new Set(ids) : known;
    } catch {
      failed = new Set(records.map((r) => r.messageId));
    } finally {
      stop();
    }
    const done = records.filter((r) => !failed.has(r.messageId));
    const entries = (rs: SQSRecord[]) =>
      rs.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle }));
    if (done.length > 0)
      await this.sqs.send(
        new DeleteMessageBatchCommand({ QueueUrl: this.queueUrl, Entries: entries(done) }),
      );
    const retry = records.filter((r) => failed.has(r.messageId));
    for (const r of retry) {
      const asked = this.asked.get(r.receiptHandle);
      if (asked !== undefined) this.retries.push(asked);
      const seconds = asked ?? this.visibilityS;
      this.asked.delete(r.receiptHandle);
      this.inFlight.set(r.messageId, {
        receipt: r.receiptHandle,
        visibleAt: this.clock.now() + seconds * 1000,
      });
    }
    // The handler's own ChangeMessageVisibility started moto's real-time clock: hold them again.
    if (retry.length > 0)
      await this.sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: entries(retry).map((e) => ({ ...e, VisibilityTimeout: HELD_S })),
        }),
      );
    return failed.size;
  }
}

/**
 * Notes the visibility timeout each ChangeMessageVisibility call asks for, by receipt handle,
 * while the call itself goes on to moto unchanged. The handler builds its own SQS client, so
 * the SDK's shared prototype is the one place to see it. Answers a function that stops it.
 */
function watchVisibility(asked: Map<string, number>): () => void {
  const proto = SQSClient.prototype;
  const own = Object.hasOwn(proto, 'send');
  const original = proto.send;
  const watched = function (this: SQSClient, ...args: Parameters<SQSClient['send']>) {
    const input = (args[0] as unknown as { input?: Record<string, unknown> }).input ?? {};
    if (typeof input.ReceiptHandle === 'string' && typeof input.VisibilityTimeout === 'number')
      asked.set(input.ReceiptHandle, input.VisibilityTimeout);
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  };
  proto.send = watched as SQSClient['send'];
  return () => {
    if (own) proto.send = original;
    else delete (proto as { send?: unknown }).send;
  };
}
