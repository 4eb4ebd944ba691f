import { randomBytes } from 'node:crypto';
import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
} from '@aws-sdk/client-sqs';
import type { SQSEvent } from 'aws-lambda';
import type { Product } from './product.js';
import { type Receiver, startReceiver } from './receivers.js';
import { type DrainOutcome, drainQueue } from './sqs-event-source.js';

/** The four destinations of the notifier, each a real local receiver. */
export interface Destinations {
  slack: Receiver;
  teams: Receiver;
  pagerduty: Receiver;
  webhook: Receiver;
  routingKey: string;
  webhookSecret: string;
  /** Runs the notifier over its queue, as Lambda's SQS event source would, until it is empty. */
  notify(): Promise<void>;
  /** One receive of the queue and one invocation; what failed is back in the queue. */
  notifyOnce(): Promise<DrainOutcome>;
  /** Moves the dead letters back to the notifier's queue, as an operator's redrive does. */
  redriveDeadLetters(): Promise<number>;
  /** Messages in the notifier's dead-letter queue, with their attributes. */
  deadLetters(): Promise<{ body: string; destination?: string; reason?: string }[]>;
  close(): Promise<void>;
}

export async function startDestinations(product: Product): Promise<Destinations> {
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
  return {
    slack,
    teams,
    pagerduty,
    webhook,
    routingKey,
    webhookSecret,
    notify: async () => {
      await drainQueue(
        product.aws.clients.sqs,
        product.res.notifierQueueUrl,
        (event: SQSEvent) => product.run('alert-notifier', event),
        { maxInvocations: 1000 },
      );
    },
    notifyOnce: () =>
      drainQueue(
        product.aws.clients.sqs,
        product.res.notifierQueueUrl,
        (event: SQSEvent) => product.run('alert-notifier', event),
        { once: true },
      ),
    redriveDeadLetters: async () => {
      const { sqs } = product.aws.clients;
      const out = await sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: product.res.notifierDlqUrl,
          MaxNumberOfMessages: 10,
          MessageAttributeNames: ['All'],
        }),
      );
      for (const m of out.Messages ?? []) {
        await sqs.send(
          new SendMessageCommand({
            QueueUrl: product.res.notifierQueueUrl,
            MessageBody: m.Body ?? '',
            MessageAttributes: m.MessageAttributes,
          }),
        );
        await sqs.send(
          new DeleteMessageCommand({
            QueueUrl: product.res.notifierDlqUrl,
            ReceiptHandle: m.ReceiptHandle,
          }),
        );
      }
      return out.Messages?.length ?? 0;
    },
    deadLetters: async () => {
      const out = await product.aws.clients.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: product.res.notifierDlqUrl,
          MaxNumberOfMessages: 10,
          MessageAttributeNames: ['All'],
        }),
      );
      return (out.Messages ?? []).map((m) => ({
        body: m.Body ?? '',
        destination: m.MessageAttributes?.destination?.StringValue,
        reason: m.MessageAttributes?.reason?.StringValue,
      }));
    },
    close: async () => {
      await Promise.all(receivers.map((r) => r.close()));
    },
  };
}
