import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { arn, logicalId, ref, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
});

const resource = (id: string) => s.template.toJSON().Resources[id];

describe('SkywatchSecrets', () => {
  it('encrypts both secrets with a customer-managed, rotating key', () => {
    const { key, credentials, token } = s.stack.secrets;
    expect(resource(logicalId(key)).Properties.EnableKeyRotation).toBe(true);
    for (const secret of [credentials, token]) {
      expect(resource(logicalId(secret)).Properties.KmsKeyId).toEqual(arn(key));
    }
  });

  it('starts the credentials as a generated webhook signing secret, with no credential in the template', () => {
    expect(resource(logicalId(s.stack.secrets.credentials)).Properties).toEqual(
      expect.objectContaining({
        GenerateSecretString: {
          SecretStringTemplate: '{}',
          GenerateStringKey: 'webhookSigningSecret',
          PasswordLength: 48,
          ExcludePunctuation: true,
        },
      }),
    );
    expect(
      resource(logicalId(s.stack.secrets.credentials)).Properties.SecretString,
    ).toBeUndefined();
  });

  it('starts the token secret empty, for the refresher to bootstrap', () => {
    expect(resource(logicalId(s.stack.secrets.token)).Properties.SecretString).toBe('{}');
  });
});

describe('Topics', () => {
  it('encrypts the alert and ops topics with their own rotating keys', () => {
    for (const t of [s.stack.alerts, s.stack.ops]) {
      expect(resource(logicalId(t.topic)).Properties.KmsMasterKeyId).toEqual(arn(t.key));
      expect(resource(logicalId(t.key)).Properties.EnableKeyRotation).toBe(true);
    }
  });

  it('denies publishing without TLS on both topics', () => {
    for (const t of [s.stack.alerts, s.stack.ops]) {
      s.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
        Topics: [ref(t.topic)],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Effect: 'Deny',
              Action: 'sns:Publish',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
          ]),
        },
      });
    }
  });

  it('lets CloudWatch alarms of this account publish to the ops topic through its key', () => {
    s.template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
          }),
        ]),
      },
    });
  });

  it('subscribes nothing unless configured: the notifier has a queue of its own', () => {
    s.template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('gives the notifier a FIFO queue, grouped per destination and alert, and a FIFO dead-letter queue', () => {
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      VisibilityTimeout: 720,
      RedrivePolicy: {
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(s.stack.notifierDeadLetterQueue), 'Arn'] },
        maxReceiveCount: 12,
      },
    });
    s.template.hasResourceProperties('AWS::SQS::Queue', {
      FifoQueue: true,
      MessageRetentionPeriod: 14 * 86_400,
    });
    // Lambda's event source hands the notifier batches and takes partial failures.
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [logicalId(s.stack.notifierQueue), 'Arn'] },
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('subscribes the alert e-mail to alerts and, by default, to ops', () => {
    const { stack, template } = synth({ alertEmail: 'soc@example.com' });
    for (const t of [stack.alerts, stack.ops]) {
      template.hasResourceProperties('AWS::SNS::Subscription', {
        Protocol: 'email',
        Endpoint: 'soc@example.com',
        TopicArn: ref(t.topic),
      });
    }
  });

  it('subscribes a separate ops e-mail to the ops topic', () => {
    const { stack, template } = synth({
      alertEmail: 'soc@example.com',
      opsEmail: 'ops@example.com',
    });
    template.hasResourceProperties('AWS::SNS::Subscription', {
      Endpoint: 'ops@example.com',
      TopicArn: ref(stack.ops.topic),
    });
    template.resourceCountIs('AWS::SNS::Subscription', 2);
  });
});

describe('Queues', () => {
  it('encrypts every queue and denies requests without TLS', () => {
    const queues = s.template.findResources('AWS::SQS::Queue');
    expect(Object.keys(queues)).toHaveLength(9);
    for (const q of Object.values(queues)) expect(q.Properties.SqsManagedSseEnabled).toBe(true);
    const policies = Object.values(s.template.findResources('AWS::SQS::QueuePolicy'));
    expect(policies).toHaveLength(9);
    for (const p of policies) {
      expect(p.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Deny',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        }),
      );
    }
  });

  it('gives the archive queue six archive-worker timeouts of visibility and a dead-letter queue after 3 receives', () => {
    expect(resource(logicalId(s.stack.archiveQueue)).Properties).toEqual(
      expect.objectContaining({
        VisibilityTimeout: 5400,
        RedrivePolicy: {
          deadLetterTargetArn: arn(s.stack.archiveDeadLetterQueue),
          maxReceiveCount: 3,
        },
      }),
    );
  });

  it('keeps dead letters for 14 days', () => {
    expect(
      resource(logicalId(s.stack.archiveDeadLetterQueue)).Properties.MessageRetentionPeriod,
    ).toBe(1_209_600);
  });

  it("takes the archive queue's receive count from the settings", () => {
    const { stack, template } = synth({ archiveMaxReceiveCount: 5 });
    template.hasResourceProperties('AWS::SQS::Queue', {
      RedrivePolicy: { deadLetterTargetArn: arn(stack.archiveDeadLetterQueue), maxReceiveCount: 5 },
    });
  });
});
