import { randomBytes } from 'node:crypto';
import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Clock } from '../../lib/http/clock.js';
import { type FifoDrainOutcome, FifoEventSource } from './fifo-event-source.js';
import type { Product } from './product.js';
import { type Receiver, startReceiver } from './receivers.js';

/** The four destinations of the notifier, each a real local receiver. */
export interface Destinations {
  slack: Receiver;
  teams: Receiver;
  pagerduty: Receiver;
  webhook: Receiver;
  routingKey: string;
  webhookSecret: string;
  /**
   * Runs the notifier over its queue, as Lambda's SQS event source would, until it holds
   * nothing: failed deliveries come back when their visibility ends, on the clock.
   */
  notify(): Promise<FifoDrainOutcome>;
  /** Delivers what is visible at the clock's time, and no more. */
  notifyDue(): Promise<FifoDrainOutcome>;
  /** One receive of the queue and one invocation; what failed waits for its visibility. */
  notifyOnce(): Promise<FifoDrainOutcome>;
  /** The event source itself: what is in flight, and when it comes back. */
  source: FifoEventSource;
  /** Moves the dead letters back to the notifier's queue, as an operator's redrive does. */
  redriveDeadLetters(): Promise<number>;
  /** Messages in the notifier's dead-letter queue, with their attributes. */
  deadLetters(): Promise<{ body: string; destination?: string; reason?: string }[]>;
  close(): Promise<void>;
}

/** Time for the queue's visibility timeouts: moved on, never waited out. */
export function offsetClock(): Clock {
  let ahead = 0;
  return {
    now: () => Date.now() + ahead,
    sleep: async (ms) => {
      ahead += Math.max(0, ms);
    },
    random: Math.random,
  };
}

/**
 * Every message of the dead-letter queue, in order; `remove` deletes them (a redrive moves
 * them), else they are left visible (a look).
 */
async function receiveAll(product: Product, remove: boolean): Promise<Message[]> {
  const { sqs } = product.aws.clients;
  const QueueUrl = product.res.notifierDlqUrl;
  const all: Message[] = [];
  for (;;) {
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl,
        MaxNumberOfMessages: 10,
        VisibilityTimeout: 60,
        MessageAttributeNames: ['All'],
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const got = out.Messages ?? [];
    if (got.length === 0) break;
    all.push(...got);
    const entries = got.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' }));
    if (remove) await sqs.send(new DeleteMessageBatchCommand({ QueueUrl, Entries: entries }));
  }
  if (!remove)
    for (let i = 0; i < all.length; i += 10)
      await sqs.send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl,
          Entries: all.slice(i, i + 10).map((m, n) => ({
            Id: String(n),
            ReceiptHandle: m.ReceiptHandle ?? '',
            VisibilityTimeout: 0,
          })),
        }),
      );
  return all;
}

export async function startDestinations(
  product: Product,
  clock: Clock = offsetClock(),
): Promise<Destinations> {
  const [slack, teams, pagerduty, webhook] = await Promise.all([
    startReceiver(200),
    startReceiver(202),
    startReceiver(202),
    startReceiver(204),
  ]);
  const routingKey = randomBytes(16).toString('hex');
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  await product.aws.clients.secrets.send(
    new PutSecretValueCommand({
      SecretId: product.res.notifierSecretArn,
      SecretString: JSON.stringify({
        slack: { url: slack.url },
        teams: { url: teams.url },
        pagerduty: { routingKey, url: pagerduty.url },
        webhook: { url: webhook.url, secret: webhookSecret },
      }),
    }),
  );
  const receivers = [slack, teams, pagerduty, webhook];
  const source = new FifoEventSource(
    product.aws.clients.sqs,
    product.res.notifierQueueUrl,
    (event: SQSEvent) => product.run('alert-notifier', event) as Promise<SQSBatchResponse>,
    clock,
  );
  return {
    slack,
    teams,
    pagerduty,
    webhook,
    routingKey,
    webhookSecret,
    notify: () => source.drain({ waitForRetries: true, maxInvocations: 1000 }),
    notifyDue: () => source.drain({ maxInvocations: 1000 }),
    notifyOnce: () => source.drain({ once: true }),
    source,
    redriveDeadLetters: async () => {
      const letters = await receiveAll(product, true);
      for (const m of letters)
        await product.aws.clients.sqs.send(
          new SendMessageCommand({
            QueueUrl: product.res.notifierQueueUrl,
            MessageBody: m.Body ?? '',
            MessageAttributes: m.MessageAttributes,
            MessageGroupId: m.Attributes?.MessageGroupId,
            // What an operator's redrive (StartMessageMoveTask) does: the message is new to SQS.
            MessageDeduplicationId: `redrive-${m.MessageId}`,
          }),
        );
      return letters.length;
    },
    deadLetters: async () =>
      (await receiveAll(product, false)).map((m) => ({
        body: m.Body ?? '',
        destination: m.MessageAttributes?.destination?.StringValue,
        reason: m.MessageAttributes?.reason?.StringValue,
      })),
    close: async () => {
      await Promise.all(receivers.map((r) => r.close()));
    },
  };
}
