import type { IConstruct } from 'constructs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionName } from '../../infra/functions.js';
import { arn, byJson, type Json, logicalId, ref, type Synth, synth } from './helpers.js';

// permissions.test.ts asserts what each role's own policy allows; this file asserts what the
// other side grants: key policies, and the bucket, topic and queue policies, statement by
// statement. (Bucket policies are asserted in storage.test.ts.)

let s: Synth;
beforeAll(() => {
  s = synth();
});

const resource = (c: IConstruct) => s.template.toJSON().Resources[logicalId(c)];
const keyPolicy = (key: IConstruct) => resource(key).Properties.KeyPolicy;

const ACCOUNT = {
  AWS: {
    'Fn::Join': [
      '',
      ['arn:', { Ref: 'AWS::Partition' }, ':iam::', { Ref: 'AWS::AccountId' }, ':root'],
    ],
  },
};
const THIS_ACCOUNT = { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } };
/** The key policy statement that lets IAM policies of the account grant use of the key. */
const ACCOUNT_ADMIN = { Action: 'kms:*', Effect: 'Allow', Principal: ACCOUNT, Resource: '*' };
const VIA_SECRETS_MANAGER = {
  StringEquals: {
    'kms:ViaService': {
      'Fn::Join': ['', ['secretsmanager.', { Ref: 'AWS::Region' }, '.amazonaws.com']],
    },
  },
};
const policy = (...statements: Json[]) => ({ Version: '2012-10-17', Statement: statements });

const ALL_FUNCTIONS: FunctionName[] = [
  'tokenRefresher',
  'reportFetcher',
  'archiveWorker',
  'blockedUrlAlerter',
  'infectionAlerter',
  'cartCustomerWebhook',
  'reportBuilder',
  'alertNotifier',
];
const roleArn = (name: FunctionName) => arn(s.stack.functions[name].role);

describe('Key policies', () => {
  it('uses exactly four customer-managed keys: secrets, archive, alert topic, ops topic', () => {
    const { secrets, archive, alerts, ops } = s.stack;
    expect(Object.keys(s.template.findResources('AWS::KMS::Key')).sort()).toEqual(
      [secrets.key, archive.key, alerts.key, ops.key].map(logicalId).sort(),
    );
  });

  it('lets every function role decrypt secrets and the token refresher alone encrypt, only through Secrets Manager', () => {
    expect(keyPolicy(s.stack.secrets.key)).toEqual(
      policy(
        ACCOUNT_ADMIN,
        {
          // aws-cdk-lib's default for a secret's key: principals of the account that IAM lets
          // use the secret may use the key for it, through Secrets Manager only.
          Action: [
            'kms:CreateGrant',
            'kms:Decrypt',
            'kms:DescribeKey',
            'kms:Encrypt',
            'kms:GenerateDataKey*',
            'kms:ReEncrypt*',
          ],
          Condition: VIA_SECRETS_MANAGER,
          Effect: 'Allow',
          Principal: ACCOUNT,
          Resource: '*',
        },
        {
          Action: 'kms:Decrypt',
          Condition: VIA_SECRETS_MANAGER,
          Effect: 'Allow',
          Principal: { AWS: ALL_FUNCTIONS.map(roleArn).sort(byJson) },
          Resource: '*',
        },
        {
          Action: ['kms:Encrypt', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'],
          Condition: VIA_SECRETS_MANAGER,
          Effect: 'Allow',
          Principal: { AWS: roleArn('tokenRefresher') },
          Resource: '*',
        },
      ),
    );
  });

  it('names no role in the archive key policy: the functions use it by their IAM policies', () => {
    expect(keyPolicy(s.stack.archive.key)).toEqual(policy(ACCOUNT_ADMIN));
  });

  it('names no role in the alert topic key policy: the alerters use it by their IAM policies', () => {
    expect(keyPolicy(s.stack.alerts.key)).toEqual(policy(ACCOUNT_ADMIN));
  });

  it("lets CloudWatch alarms of this account, and nothing else, use the ops topic's key", () => {
    expect(keyPolicy(s.stack.ops.key)).toEqual(
      policy(ACCOUNT_ADMIN, {
        Action: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        Condition: THIS_ACCOUNT,
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Resource: '*',
      }),
    );
  });
});

/** The one policy of a given type that names the resource in `property`. */
function policyOf(type: string, property: string, target: IConstruct): Json {
  const found = Object.values(s.template.findResources(type)).filter(
    (p) => JSON.stringify(p.Properties[property]) === JSON.stringify([ref(target)]),
  );
  expect(found).toHaveLength(1);
  return found[0]?.Properties.PolicyDocument;
}

describe('Topic policies', () => {
  const denyPlainHttp = (topic: IConstruct) => ({
    Action: 'sns:Publish',
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    Effect: 'Deny',
    Principal: '*',
    Resource: ref(topic),
    Sid: 'AllowPublishThroughSSLOnly',
  });

  it('lets no one publish to the alert topic by topic policy, and denies plain HTTP', () => {
    const { topic } = s.stack.alerts;
    expect(policyOf('AWS::SNS::TopicPolicy', 'Topics', topic)).toEqual(
      policy(denyPlainHttp(topic)),
    );
  });

  it('lets CloudWatch alarms of this account alone publish to the ops topic, over TLS', () => {
    const { topic } = s.stack.ops;
    expect(policyOf('AWS::SNS::TopicPolicy', 'Topics', topic)).toEqual(
      policy(denyPlainHttp(topic), {
        Action: 'sns:Publish',
        Condition: THIS_ACCOUNT,
        Effect: 'Allow',
        Principal: { Service: 'cloudwatch.amazonaws.com' },
        Resource: ref(topic),
        Sid: '1',
      }),
    );
  });
});

describe('Queue policies', () => {
  const denyPlainHttp = (queue: IConstruct) => ({
    Action: 'sqs:*',
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    Effect: 'Deny',
    Principal: { AWS: '*' },
    Resource: arn(queue),
  });

  it('grants nothing on the fan-out queue and its dead-letter queue by queue policy', () => {
    for (const queue of [s.stack.archiveQueue, s.stack.archiveDeadLetterQueue]) {
      expect(policyOf('AWS::SQS::QueuePolicy', 'Queues', queue)).toEqual(
        policy(denyPlainHttp(queue)),
      );
    }
  });

  const scheduled = {
    tokenRefresher: 'TokenRefresher',
    reportFetcher: 'ReportFetcher',
    blockedUrlAlerter: 'BlockedUrlAlerter',
    infectionAlerter: 'InfectionAlerter',
  } as const;
  for (const [name, rule] of Object.entries(scheduled) as [FunctionName, string][]) {
    it(`lets only the ${rule} schedule rule send undeliverable events to the ${name} dead-letter queue`, () => {
      const queue = s.stack.functions[name].deadLetterQueue;
      const eventRule = s.stack.schedules.rules[rule];
      if (!queue || !eventRule) throw new Error(`${name} has no dead-letter queue or rule`);
      const statements = policyOf('AWS::SQS::QueuePolicy', 'Queues', queue).Statement;
      expect(statements).toEqual([
        denyPlainHttp(queue),
        {
          Action: 'sqs:SendMessage',
          Condition: { ArnEquals: { 'aws:SourceArn': arn(eventRule) } },
          Effect: 'Allow',
          Principal: { Service: 'events.amazonaws.com' },
          Resource: arn(queue),
          Sid: expect.stringMatching(/^AllowEventRule/),
        },
      ]);
    });
  }
});

describe('Resource policies, all of them', () => {
  it('attaches policies only through the resources asserted here, in storage.test.ts and permissions.test.ts', () => {
    const types = Object.values(s.template.toJSON().Resources).map((r) => (r as Json).Type);
    const policyTypes = [...new Set(types.filter((t) => /Policy|Permission/.test(t)))].sort();
    expect(policyTypes).toEqual([
      'AWS::IAM::Policy',
      'AWS::Lambda::Permission',
      'AWS::S3::BucketPolicy',
      'AWS::SNS::TopicPolicy',
      'AWS::SQS::QueuePolicy',
    ]);
    s.template.resourceCountIs('AWS::S3::BucketPolicy', 2);
    s.template.resourceCountIs('AWS::SNS::TopicPolicy', 2);
    s.template.resourceCountIs('AWS::SQS::QueuePolicy', 9);
  });
});
