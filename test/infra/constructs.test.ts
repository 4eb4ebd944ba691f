import * as path from 'node:path';
import { App, type CfnResource, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as events from 'aws-cdk-lib/aws-events';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sns from 'aws-cdk-lib/aws-sns';
import { describe, expect, it } from 'vitest';
import { ArchiveQuery } from '../../infra/constructs/archive-query.js';
import { ReportBucket } from '../../infra/constructs/report-bucket.js';
import { Schedules } from '../../infra/constructs/schedules.js';
import { SecureTopic } from '../../infra/constructs/secure-topic.js';
import { ServiceAlarms } from '../../infra/constructs/service-alarms.js';
import {
  SkywatchFunction,
  type SkywatchFunctionProps,
} from '../../infra/constructs/skywatch-function.js';
import { WebhookApi } from '../../infra/constructs/webhook-api.js';
import { cdkJsonContext, ROOT } from './helpers.js';

/** A fresh stack per test with the flags of cdk.json; bundling skipped, templates only. */
const newStack = () =>
  new Stack(new App({ context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] } }), 'Test');

function functionProps(stack: Stack, overrides: Partial<SkywatchFunctionProps> = {}) {
  return {
    entry: path.join(ROOT, 'functions/token-refresher/handler.ts'),
    serviceName: 'token-refresher',
    description: 'test',
    timeout: Duration.seconds(30),
    memorySize: 256,
    environment: { TOKEN_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:1:secret:t' },
    alarmTopic: new sns.Topic(stack, 'Topic'),
    logRetention: logs.RetentionDays.ONE_MONTH,
    ...('asyncRetryAttempts' in overrides ? {} : { failuresKeptBy: 'the caller gets the error.' }),
    ...overrides,
  } satisfies SkywatchFunctionProps;
}

describe('SkywatchFunction', () => {
  it('refuses an entry that does not exist', () => {
    const stack = newStack();
    expect(
      () =>
        new SkywatchFunction(stack, 'Fn', functionProps(stack, { entry: '/nowhere/handler.ts' })),
    ).toThrow('SkywatchFunction: entry /nowhere/handler.ts does not exist.');
  });

  it('refuses a timeout beyond the Lambda limit', () => {
    const stack = newStack();
    expect(
      () =>
        new SkywatchFunction(stack, 'Fn', functionProps(stack, { timeout: Duration.minutes(16) })),
    ).toThrow(/timeout must be 1–900 s/);
  });

  it('refuses an environment variable that looks like a secret value', () => {
    const stack = newStack();
    expect(
      () =>
        new SkywatchFunction(
          stack,
          'Fn',
          functionProps(stack, { environment: { CLIENT_SECRET: 'hunter2' } }),
        ),
    ).toThrow(/environment CLIENT_SECRET looks like a secret value/);
  });

  it('refuses more asynchronous retries than Lambda allows', () => {
    const stack = newStack();
    expect(
      () => new SkywatchFunction(stack, 'Fn', functionProps(stack, { asyncRetryAttempts: 3 })),
    ).toThrow(/asyncRetryAttempts must be 0, 1 or 2/);
  });

  it('needs exactly one of asynchronous retries and who keeps its failures', () => {
    const stack = newStack();
    const { failuresKeptBy: _, ...neither } = functionProps(stack);
    expect(() => new SkywatchFunction(stack, 'Neither', neither)).toThrow(
      /give exactly one of asyncRetryAttempts \(invoked asynchronously\) and failuresKeptBy \(not\)/,
    );
    const other = newStack();
    expect(
      () =>
        new SkywatchFunction(
          other,
          'Both',
          functionProps(other, { asyncRetryAttempts: 0, failuresKeptBy: 'the caller.' }),
        ),
    ).toThrow(/give exactly one of/);
  });

  // The file's first synth: it loads aws-cdk-lib's synthesis modules, seconds on a busy machine.
  it('traces actively, with the X-Ray actions in a policy of their own', {
    timeout: 60_000,
  }, () => {
    const stack = newStack();
    const fn = new SkywatchFunction(stack, 'Fn', functionProps(stack));
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::Lambda::Function', { TracingConfig: { Mode: 'Active' } });
    const tracing = fn.node.findChild('TracingPolicy').node.defaultChild as CfnResource;
    expect(template.toJSON().Resources[stack.resolve(tracing.logicalId)].Properties).toEqual({
      PolicyDocument: {
        Statement: [
          {
            Action: ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'],
            Effect: 'Allow',
            Resource: '*',
          },
        ],
        Version: '2012-10-17',
      },
      PolicyName: expect.any(String),
      Roles: [{ Ref: stack.resolve((fn.role.node.defaultChild as CfnResource).logicalId) }],
    });
  });

  it('creates no dead-letter queue unless invoked asynchronously', () => {
    const stack = newStack();
    new SkywatchFunction(stack, 'Fn', functionProps(stack));
    Template.fromStack(stack).resourceCountIs('AWS::SQS::Queue', 0);
  });
});

describe('ReportBucket', () => {
  const props = {
    transitionDays: 30,
    expirationDays: 400,
    noncurrentVersionExpirationDays: 30,
    accessLogExpirationDays: 90,
  };

  it('needs server access logs granted by bucket policy, not ACL', () => {
    const stack = new Stack(new App(), 'Test');
    expect(() => new ReportBucket(stack, 'B', props)).toThrow(
      /needs the feature flag @aws-cdk\/aws-s3:serverAccessLogsUseBucketPolicy/,
    );
  });

  it('refuses a transition to Standard-IA before 30 days', () => {
    expect(() => new ReportBucket(newStack(), 'B', { ...props, transitionDays: 29 })).toThrow(
      'ReportBucket: transitionDays must be at least 30 (got 29).',
    );
  });

  it('refuses an expiry before the transition', () => {
    expect(() => new ReportBucket(newStack(), 'B', { ...props, expirationDays: 30 })).toThrow(
      /expirationDays \(30\) must be greater than transitionDays \(30\)/,
    );
  });
});

describe('WebhookApi', () => {
  it('refuses a burst limit below the rate limit', () => {
    const stack = newStack();
    const fn = new SkywatchFunction(stack, 'Fn', functionProps(stack));
    expect(
      () =>
        new WebhookApi(stack, 'Api', {
          handler: fn.function,
          rateLimit: 10,
          burstLimit: 5,
          logRetention: logs.RetentionDays.ONE_MONTH,
        }),
    ).toThrow(/burstLimit \(5\) must be an integer of at least rateLimit \(10\)/);
  });
});

describe('ServiceAlarms', () => {
  it('refuses a heartbeat window CloudWatch cannot evaluate', () => {
    const stack = newStack();
    expect(
      () =>
        new ServiceAlarms(stack, 'A', {
          topic: new sns.Topic(stack, 'T'),
          archiveHeartbeatHours: 169,
        }),
    ).toThrow(/archiveHeartbeatHours must be an integer from 25 to 168 \(got 169\)/);
  });
});

describe('Schedules', () => {
  it('refuses a scheduled function without a dead-letter queue', () => {
    const stack = newStack();
    const fn = new SkywatchFunction(stack, 'Fn', functionProps(stack));
    expect(
      () =>
        new Schedules(stack, 'S', {
          schedules: {
            Fn: {
              target: fn,
              schedule: events.Schedule.rate(Duration.minutes(5)),
              description: 'x',
            },
          },
        }),
    ).toThrow(/Fn has no dead-letter queue/);
  });
});

describe('SecureTopic', () => {
  it('does not let CloudWatch publish unless asked', () => {
    const stack = newStack();
    new SecureTopic(stack, 'T', { displayName: 'Alerts' });
    expect(JSON.stringify(Template.fromStack(stack).toJSON())).not.toContain(
      'cloudwatch.amazonaws.com',
    );
  });
});

describe('ArchiveQuery', () => {
  it('refuses a results prefix that is not a folder', () => {
    const stack = newStack();
    const bucket = new s3.Bucket(stack, 'B');
    const key = new kms.Key(stack, 'K');
    expect(
      () =>
        new ArchiveQuery(stack, 'Q', {
          bucket,
          key,
          resultsPrefix: 'athena-results',
          reportsPrefix: 'reports/',
          gsmKeys: ['AAAA-BBBB-CCCC-DDDD-EEEE'],
          retentionDays: 400,
        }),
    ).toThrow(/resultsPrefix must be like 'athena-results\/'/);
  });
});
