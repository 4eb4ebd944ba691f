import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { CreateSecretCommand } from '@aws-sdk/client-secrets-manager';
import { CreateTopicCommand, SubscribeCommand } from '@aws-sdk/client-sns';
import {
  CreateQueueCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
} from '@aws-sdk/client-sqs';
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { NOTIFIER_QUEUE } from '../../infra/config/notifier-queue.js';
import { DEFAULT_ROUTING, NO_MUTES } from '../../lib/alerts/index.js';
import type { AwsClients } from '../../lib/aws/index.js';

/** What the CDK stack deploys, made by hand on local endpoints (moto). */
export interface LocalResources {
  bucket: string;
  topicArn: string;
  /** A queue subscribed to the alert topic, standing in for an e-mail inbox. */
  alertQueueUrl: string;
  archiveQueueUrl: string;
  archiveDlqUrl: string;
  credentialsSecretArn: string;
  tokenSecretArn: string;
  /** The alert notifier's FIFO queue (the alerter's deliveries), its dead letters and secret. */
  notifierQueueUrl: string;
  notifierDlqUrl: string;
  notifierSecretArn: string;
  /** The routing document's SSM parameter, holding the default document as the stack's does. */
  routingParameter: string;
  /** The maintenance windows' SSM parameter, holding no window as the stack's does. */
  mutesParameter: string;
}

export async function provision(
  clients: AwsClients,
  name: string,
  credentials: Record<string, unknown>,
): Promise<LocalResources> {
  const bucket = `${name}-reports`;
  await clients.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const topic = await clients.sns.send(new CreateTopicCommand({ Name: `${name}-alerts` }));
  const topicArn = topic.TopicArn ?? '';
  const inbox = await clients.sqs.send(
    new CreateQueueCommand({ QueueName: `${name}-alert-inbox` }),
  );
  const alertQueueUrl = inbox.QueueUrl ?? '';
  const inboxArn = await queueArn(clients, alertQueueUrl);
  await clients.sns.send(
    new SubscribeCommand({
      TopicArn: topicArn,
      Protocol: 'sqs',
      Endpoint: inboxArn,
      Attributes: { RawMessageDelivery: 'false' },
    }),
  );
  const dlq = await clients.sqs.send(new CreateQueueCommand({ QueueName: `${name}-archive-dlq` }));
  const archiveDlqUrl = dlq.QueueUrl ?? '';
  const archive = await clients.sqs.send(
    new CreateQueueCommand({
      QueueName: `${name}-archive`,
      Attributes: {
        VisibilityTimeout: '30',
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await queueArn(clients, archiveDlqUrl),
          maxReceiveCount: 3,
        }),
      },
    }),
  );
  const creds = await clients.secrets.send(
    new CreateSecretCommand({
      Name: `${name}/credentials`,
      SecretString: JSON.stringify(credentials),
    }),
  );
  // The token secret starts empty-but-valid JSON; the refresher's first run bootstraps it.
  const token = await clients.secrets.send(
    new CreateSecretCommand({ Name: `${name}/token`, SecretString: '{}' }),
  );
  const notifier = await provisionNotifier(clients, name);
  const routingParameter = `/${name}/alert-routing`;
  await clients.ssm.send(
    new PutParameterCommand({
      Name: routingParameter,
      Type: 'String',
      Value: JSON.stringify(DEFAULT_ROUTING),
    }),
  );
  const mutesParameter = `/${name}/alert-mutes`;
  await clients.ssm.send(
    new PutParameterCommand({
      Name: mutesParameter,
      Type: 'String',
      Value: JSON.stringify(NO_MUTES),
    }),
  );
  return {
    ...notifier,
    bucket,
    topicArn,
    alertQueueUrl,
    archiveQueueUrl: archive.QueueUrl ?? '',
    archiveDlqUrl,
    credentialsSecretArn: creds.ARN ?? '',
    tokenSecretArn: token.ARN ?? '',
    routingParameter,
    mutesParameter,
  };
}

/** The notifier's FIFO queue and its FIFO dead-letter queue, as the stack makes them. */
async function provisionNotifier(clients: AwsClients, name: string) {
  const fifo = { FifoQueue: 'true', DeduplicationScope: 'messageGroup' };
  const dlq = await clients.sqs.send(
    new CreateQueueCommand({ QueueName: `${name}-notifier-dlq.fifo`, Attributes: fifo }),
  );
  const notifierDlqUrl = dlq.QueueUrl ?? '';
  const queue = await clients.sqs.send(
    new CreateQueueCommand({
      QueueName: `${name}-notifier.fifo`,
      Attributes: {
        ...fifo,
        FifoThroughputLimit: 'perMessageGroupId',
        VisibilityTimeout: String(NOTIFIER_QUEUE.visibilitySeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: await queueArn(clients, notifierDlqUrl),
          maxReceiveCount: NOTIFIER_QUEUE.maxReceiveCount,
        }),
      },
    }),
  );
  const notifierQueueUrl = queue.QueueUrl ?? '';
  // No destination until one is configured (the local run and tests point them at receivers).
  const secret = await clients.secrets.send(
    new CreateSecretCommand({ Name: `${name}/notifier`, SecretString: '{}' }),
  );
  return { notifierQueueUrl, notifierDlqUrl, notifierSecretArn: secret.ARN ?? '' };
}

export async function queueArn(clients: AwsClients, url: string): Promise<string> {
  const out = await clients.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }),
  );
  return out.Attributes?.QueueArn ?? '';
}

/** Drains a queue (the alert inbox): answers the SNS notifications' parsed messages. */
export async function drainAlerts(
  clients: AwsClients,
  queueUrl: string,
): Promise<Record<string, unknown>[]> {
  const alerts: Record<string, unknown>[] = [];
  for (;;) {
    const out = await clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: queueUrl,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 0,
      }),
    );
    const messages = out.Messages ?? [];
    if (messages.length === 0) return alerts;
    for (const m of messages) {
      const envelope = JSON.parse(m.Body ?? '{}') as {
        Message?: string;
        Subject?: string;
        MessageAttributes?: unknown;
      };
      alerts.push({
        snsSubject: envelope.Subject,
        attributes: envelope.MessageAttributes,
        ...(JSON.parse(envelope.Message ?? '{}') as Record<string, unknown>),
      });
    }
    await clients.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: messages.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle ?? '' })),
      }),
    );
  }
}
