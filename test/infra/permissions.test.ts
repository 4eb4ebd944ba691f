import { beforeAll, describe, expect, it } from 'vitest';
import type { SkywatchFunction } from '../../infra/constructs/skywatch-function.js';
import {
  allow,
  arn,
  byJson,
  type Json,
  logicalId,
  normalize,
  prefixArn,
  ref,
  roleStatements,
  type Synth,
  synth,
} from './helpers.js';

// One synth for the whole file: every test only reads the template.
let s: Synth;
beforeAll(() => {
  s = synth();
});

const S3_READ = ['s3:GetBucket*', 's3:GetObject*', 's3:List*'];
const S3_PUT = [
  's3:Abort*',
  's3:PutObject',
  's3:PutObjectLegalHold',
  's3:PutObjectRetention',
  's3:PutObjectTagging',
  's3:PutObjectVersionTagging',
];
const KMS_READ_WRITE = [
  'kms:Decrypt',
  'kms:DescribeKey',
  'kms:Encrypt',
  'kms:GenerateDataKey*',
  'kms:ReEncrypt*',
];
const SECRET_READ = ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue'];
const SQS_SEND = ['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage'];

const logs = (fn: SkywatchFunction) =>
  allow(['logs:CreateLogStream', 'logs:PutLogEvents'], arn(fn.logGroup));
const deadLetterQueue = (fn: SkywatchFunction) => {
  if (!fn.deadLetterQueue) throw new Error(`${fn.node.id} has no dead-letter queue`);
  return fn.deadLetterQueue;
};
const deadLetters = (fn: SkywatchFunction) => allow(SQS_SEND, arn(deadLetterQueue(fn)));
/** X-Ray's two actions take no resource; every function has them, in a policy of their own. */
const XRAY = allow(['xray:PutTelemetryRecords', 'xray:PutTraceSegments'], '*');
/** GetParameter on the routing document's and the maintenance windows' parameters alone. */
const parameterArn = (parameter: Parameters<typeof ref>[0]) => ({
  'Fn::Join': [
    '',
    [
      'arn:',
      { Ref: 'AWS::Partition' },
      ':ssm:',
      { Ref: 'AWS::Region' },
      ':',
      { Ref: 'AWS::AccountId' },
      ':parameter',
      ref(parameter),
    ],
  ],
});
const routingRead = () =>
  allow('ssm:GetParameter', [
    parameterArn(s.stack.alertMutes.parameter),
    parameterArn(s.stack.alertRouting.parameter),
  ]);
/** The alert history's objects (lib/aws/report-keys.ts, alertEventsKey). */
const alertEvents = (bucket: Parameters<typeof prefixArn>[0]) =>
  prefixArn(bucket, 'reports/alert-events/');
const expectExactly = (fn: SkywatchFunction, expected: Record<string, unknown>[]) =>
  expect(roleStatements(s.template, fn.role)).toEqual([...expected, XRAY].sort(byJson));

describe('SkywatchStack: least privilege, function by function', () => {
  it('gives the token refresher the credentials, the token secret read/write, and nothing else', () => {
    const { tokenRefresher: fn } = s.stack.functions;
    const { credentials, token } = s.stack.secrets;
    expectExactly(fn, [
      logs(fn),
      deadLetters(fn),
      allow(SECRET_READ, [ref(credentials), ref(token)].sort(byJson)),
      allow(
        [
          'secretsmanager:PutSecretValue',
          'secretsmanager:UpdateSecret',
          'secretsmanager:UpdateSecretVersionStage',
        ],
        ref(token),
      ),
    ]);
  });

  it('lets the report fetcher read the token, read/write reports/, manifests/ and its day records, and send to the fan-out queue', () => {
    const { reportFetcher: fn } = s.stack.functions;
    const { bucket, key } = s.stack.archive;
    const prefixes = [
      prefixArn(bucket, 'manifests/'),
      prefixArn(bucket, 'reports/'),
      prefixArn(bucket, 'state/report-fetcher/'),
    ];
    expectExactly(fn, [
      logs(fn),
      allow(SQS_SEND, [arn(s.stack.archiveQueue), arn(deadLetterQueue(fn))].sort(byJson)),
      allow(SECRET_READ, ref(s.stack.secrets.token)),
      allow(S3_READ, [arn(bucket), ...prefixes].sort(byJson)),
      allow(S3_PUT, prefixes.sort(byJson)),
      allow(KMS_READ_WRITE, arn(key)),
    ]);
  });

  it('lets the archive worker read the token, read/write reports/, manifests/ and the day jobs, and consume and send to the archive queue', () => {
    const { archiveWorker: fn } = s.stack.functions;
    const { bucket, key } = s.stack.archive;
    const prefixes = [
      prefixArn(bucket, 'manifests/'),
      prefixArn(bucket, 'reports/'),
      prefixArn(bucket, 'state/report-fetcher/'),
    ];
    expectExactly(fn, [
      logs(fn),
      allow(SECRET_READ, ref(s.stack.secrets.token)),
      allow(S3_READ, [arn(bucket), ...prefixes].sort(byJson)),
      allow(S3_PUT, prefixes.sort(byJson)),
      allow(KMS_READ_WRITE, arn(key)),
      // It consumes the queue and hands a job it cannot finish over to a fresh invocation of
      // itself (one statement: CDK merges grants on the same queue).
      allow(
        [
          'sqs:ChangeMessageVisibility',
          'sqs:DeleteMessage',
          'sqs:GetQueueAttributes',
          'sqs:GetQueueUrl',
          'sqs:ReceiveMessage',
          'sqs:SendMessage',
        ],
        arn(s.stack.archiveQueue),
      ),
    ]);
  });

  for (const name of ['blockedUrlAlerter', 'infectionAlerter'] as const) {
    const queues = name === 'infectionAlerter' ? ', send to the notifier queue' : '';
    it(`lets the ${name} read the token, read/write/delete state/${queues} and publish to the alert topic only`, () => {
      const fn = s.stack.functions[name];
      const { bucket, key } = s.stack.archive;
      expectExactly(fn, [
        logs(fn),
        // The infection alerter queues each alert event for the notifier, beside its own
        // dead letters (one statement: the same actions).
        name === 'infectionAlerter'
          ? allow(SQS_SEND, [arn(deadLetterQueue(fn)), arn(s.stack.notifierQueue)].sort(byJson))
          : deadLetters(fn),
        allow(SECRET_READ, ref(s.stack.secrets.token)),
        allow(S3_READ, [arn(bucket), prefixArn(bucket, 'state/')].sort(byJson)),
        // The infection alerter also puts its alert history, and only that, under reports/.
        ...(name === 'infectionAlerter'
          ? [
              allow(S3_PUT, [prefixArn(bucket, 'state/'), alertEvents(bucket)].sort(byJson)),
              allow('s3:DeleteObject*', prefixArn(bucket, 'state/')),
            ]
          : [allow([...S3_PUT, 's3:DeleteObject*'], prefixArn(bucket, 'state/'))]),
        allow(KMS_READ_WRITE, arn(key)),
        allow('sns:Publish', ref(s.stack.alerts.topic)),
        allow(['kms:Decrypt', 'kms:GenerateDataKey*'], arn(s.stack.alerts.key)),
        // The routing document (test/infra/alert-routing.test.ts has the statement).
        ...(name === 'infectionAlerter' ? [routingRead()] : []),
      ]);
    });
  }

  it('lets the report builder read the token, reports/ and manifests/, and read/write pages/ only', () => {
    const { reportBuilder: fn } = s.stack.functions;
    const { bucket, key } = s.stack.archive;
    const read = [
      prefixArn(bucket, 'manifests/'),
      prefixArn(bucket, 'pages/'),
      prefixArn(bucket, 'reports/'),
    ];
    expectExactly(fn, [
      logs(fn),
      deadLetters(fn),
      allow(SECRET_READ, ref(s.stack.secrets.token)),
      allow(S3_READ, [arn(bucket), ...read].sort(byJson)),
      allow(S3_PUT, prefixArn(bucket, 'pages/')),
      allow(KMS_READ_WRITE, arn(key)),
    ]);
  });

  it('lets the webhook read both secrets and read/write/delete state/ only', () => {
    const { cartCustomerWebhook: fn } = s.stack.functions;
    const { bucket, key } = s.stack.archive;
    const { credentials, token } = s.stack.secrets;
    expectExactly(fn, [
      logs(fn),
      allow(SECRET_READ, [ref(credentials), ref(token)].sort(byJson)),
      allow(S3_READ, [arn(bucket), prefixArn(bucket, 'state/')].sort(byJson)),
      allow([...S3_PUT, 's3:DeleteObject*'], prefixArn(bucket, 'state/')),
      allow(KMS_READ_WRITE, arn(key)),
    ]);
  });
});

describe('SkywatchStack: roles and the token secret', () => {
  it('has one role per function, assumed by Lambda, without managed or inline policies', () => {
    const roles = s.template.findResources('AWS::IAM::Role');
    expect(Object.keys(roles).sort()).toEqual(
      Object.values(s.stack.functions)
        .map((fn) => logicalId(fn.role))
        .sort(),
    );
    for (const role of Object.values(roles)) {
      expect(role.Properties.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties.Policies).toBeUndefined();
      expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
        {
          Action: 'sts:AssumeRole',
          Effect: 'Allow',
          Principal: { Service: 'lambda.amazonaws.com' },
        },
      ]);
    }
  });

  it('grants writing the token secret to the token refresher alone', () => {
    const writers = Object.values(s.template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('secretsmanager:PutSecretValue'),
    );
    expect(writers.map((p) => p.Properties.Roles)).toEqual([
      [ref(s.stack.functions.tokenRefresher.role)],
    ]);
  });

  it('lets only the token refresher encrypt with the secrets key, and only through Secrets Manager', () => {
    const key = s.template.toJSON().Resources[logicalId(s.stack.secrets.key)];
    const roleStatementsOfKey = (
      key.Properties.KeyPolicy.Statement as Record<string, Json>[]
    ).filter((st) => JSON.stringify(st.Principal).includes('Role'));
    const encrypters = roleStatementsOfKey.filter((st) =>
      [st.Action].flat().includes('kms:Encrypt'),
    );
    expect(encrypters).toHaveLength(1);
    expect(encrypters[0]?.Principal).toEqual({ AWS: arn(s.stack.functions.tokenRefresher.role) });
    for (const st of roleStatementsOfKey) {
      expect(Object.keys(st.Condition.StringEquals)).toEqual(['kms:ViaService']);
    }
  });

  it('lets only the schedule rules and the webhook API route invoke functions', () => {
    const permissions = Object.values(s.template.findResources('AWS::Lambda::Permission'));
    const rule = (fn: SkywatchFunction) => ({
      FunctionName: arn(fn.function),
      Principal: 'events.amazonaws.com',
    });
    const f = s.stack.functions;
    expect(
      permissions
        .map((p) => ({
          FunctionName: p.Properties.FunctionName,
          Principal: p.Properties.Principal,
        }))
        .sort(byJson),
    ).toEqual(
      [
        rule(f.tokenRefresher),
        rule(f.reportFetcher),
        rule(f.blockedUrlAlerter),
        rule(f.infectionAlerter),
        rule(f.reportBuilder),
        {
          FunctionName: arn(f.cartCustomerWebhook.function),
          Principal: 'apigateway.amazonaws.com',
        },
      ].sort(byJson),
    );
    for (const p of permissions) {
      expect(p.Properties.Action).toBe('lambda:InvokeFunction');
      expect(p.Properties.SourceArn).toBeDefined();
    }
  });

  it('names a resource in every allow statement but the X-Ray one: no other "*" resource', () => {
    for (const policy of Object.values(s.template.findResources('AWS::IAM::Policy'))) {
      for (const st of policy.Properties.PolicyDocument.Statement as Record<string, unknown>[]) {
        if (JSON.stringify(normalize(st)) === JSON.stringify(XRAY)) continue;
        expect([st.Resource].flat()).not.toContain('*');
      }
    }
  });

  it('gives every function, and only functions, the X-Ray statement', () => {
    const xrayPolicies = Object.values(s.template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.PolicyDocument).includes('xray:'),
    );
    expect(xrayPolicies.map((p) => p.Properties.Roles[0]).sort(byJson)).toEqual(
      Object.values(s.stack.functions)
        .map((fn) => ref(fn.role))
        .sort(byJson),
    );
    for (const p of xrayPolicies) expect(p.Properties.PolicyDocument.Statement).toHaveLength(1);
  });
});
