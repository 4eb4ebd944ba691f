import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionName } from '../../infra/functions.js';
import { arn, type Json, logicalId, ref, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
});

const resources = () => s.template.toJSON().Resources as Record<string, Json>;

describe('Schedules', () => {
  const expected: [FunctionName, string][] = [
    ['tokenRefresher', 'rate(5 minutes)'],
    ['reportFetcher', 'cron(0 6 * * ? *)'],
    ['reportBuilder', 'cron(0 8 * * ? *)'],
    ['blockedUrlAlerter', 'rate(1 hour)'],
    ['infectionAlerter', 'rate(1 minute)'],
  ];
  for (const [name, expression] of expected) {
    it(`invokes the ${name} on ${expression}, with undeliverable events to its dead-letter queue`, () => {
      const fn = s.stack.functions[name];
      if (!fn.deadLetterQueue) throw new Error(`${name} has no dead-letter queue`);
      s.template.hasResourceProperties('AWS::Events::Rule', {
        ScheduleExpression: expression,
        State: 'ENABLED',
        Targets: [
          Match.objectLike({
            Arn: arn(fn.function),
            DeadLetterConfig: { Arn: arn(fn.deadLetterQueue) },
            RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
          }),
        ],
      });
    });
  }

  it('schedules nothing else', () => {
    s.template.resourceCountIs('AWS::Events::Rule', 5);
  });

  it('builds the reports two hours after the archive, across midnight too', () => {
    synth({ reportFetchTimeUtc: '23:15' }).template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'cron(15 1 * * ? *)',
      Targets: [Match.objectLike({ Arn: arn(s.stack.functions.reportBuilder.function) })],
    });
  });

  it('takes the rates and the archive time from the settings', () => {
    const { template } = synth({
      tokenRefreshMinutes: 2,
      reportFetchTimeUtc: '07:30',
      blockedUrlAlertMinutes: 180,
      infectionAlertMinutes: 10,
    });
    for (const expression of [
      'rate(2 minutes)',
      'cron(30 7 * * ? *)',
      'cron(30 9 * * ? *)',
      'rate(3 hours)',
      'rate(10 minutes)',
    ]) {
      template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: expression });
    }
  });
});

describe('WebhookApi', () => {
  it('routes POST /cart-customers to the webhook function, and nothing else', () => {
    s.template.resourceCountIs('AWS::ApiGatewayV2::Route', 1);
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
      RouteKey: 'POST /cart-customers',
      AuthorizationType: 'NONE',
    });
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Integration', {
      IntegrationType: 'AWS_PROXY',
      IntegrationUri: arn(s.stack.functions.cartCustomerWebhook.function),
      PayloadFormatVersion: '2.0',
    });
  });

  it('throttles the stage and writes access logs', () => {
    s.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 },
      AccessLogSettings: {
        DestinationArn: arn(s.stack.webhook.accessLogs),
        Format: Match.anyValue(),
      },
    });
  });

  it('writes each access log line as one JSON object, without headers or body', () => {
    const [stage] = Object.values(s.template.findResources('AWS::ApiGatewayV2::Stage'));
    const format = JSON.parse(stage?.Properties.AccessLogSettings.Format);
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(JSON.stringify(format)).not.toMatch(/header|body|authorization/i);
  });

  it('takes the throttling limits from the settings', () => {
    const { template } = synth({ webhookRateLimit: 50, webhookBurstLimit: 100 });
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
  });

  it('lets only this API route invoke the webhook function', () => {
    s.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: arn(s.stack.functions.cartCustomerWebhook.function),
      Principal: 'apigateway.amazonaws.com',
      SourceArn: { 'Fn::Join': ['', Match.arrayWith(['/*/*/cart-customers'])] },
    });
  });

  it('outputs the webhook URL', () => {
    s.template.hasOutput('WebhookUrl', {
      Value: { 'Fn::Join': ['', Match.arrayWith(['/cart-customers'])] },
    });
  });
});

describe('Alarms', () => {
  const alarmsOn = (metricName: string, namespace: string) =>
    Object.values(resources()).filter(
      (r) =>
        r.Type === 'AWS::CloudWatch::Alarm' &&
        r.Properties.MetricName === metricName &&
        r.Properties.Namespace === namespace,
    );

  it('alarms on errors and on throttles of every function, to the ops topic', () => {
    for (const metric of ['Errors', 'Throttles']) {
      const alarms = alarmsOn(metric, 'AWS/Lambda');
      expect(alarms).toHaveLength(8);
      for (const alarm of alarms) {
        expect(alarm.Properties).toEqual(
          expect.objectContaining({
            Threshold: 1,
            ComparisonOperator: 'GreaterThanOrEqualToThreshold',
            AlarmActions: [ref(s.stack.ops.topic)],
          }),
        );
      }
    }
  });

  it('alarms on every dead-letter queue holding a message', () => {
    const queues = [
      s.stack.archiveDeadLetterQueue,
      s.stack.notifierDeadLetterQueue,
      ...Object.values(s.stack.functions).flatMap((fn) => fn.deadLetterQueue ?? []),
    ];
    const alarms = alarmsOn('ApproximateNumberOfMessagesVisible', 'AWS/SQS');
    expect(alarms.map((a) => a.Properties.Dimensions[0].Value).sort()).toEqual(
      queues.map((q) => ({ 'Fn::GetAtt': [logicalId(q), 'QueueName'] })).sort(),
    );
    for (const alarm of alarms) {
      expect(alarm.Properties).toEqual(
        expect.objectContaining({ Threshold: 1, AlarmActions: [ref(s.stack.ops.topic)] }),
      );
    }
  });

  it('alarms on any token refresher authentication failure', () => {
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'Skywatch',
      MetricName: 'AuthFailures',
      Dimensions: [{ Name: 'service', Value: 'token-refresher' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      AlarmActions: [ref(s.stack.ops.topic)],
    });
  });

  it('alarms when no daily archive completed for 26 hours (missing data breaches)', () => {
    s.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      Namespace: 'Skywatch',
      MetricName: 'ArchiveCompleted',
      Dimensions: [{ Name: 'service', Value: 'report-fetcher' }],
      Period: 3600,
      EvaluationPeriods: 26,
      DatapointsToAlarm: 26,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
      AlarmActions: [ref(s.stack.ops.topic)],
    });
  });
});

describe('ArchiveQuery', () => {
  it('creates an Athena workgroup that enforces KMS-encrypted results in the archive bucket', () => {
    s.template.hasResourceProperties('AWS::Athena::WorkGroup', {
      WorkGroupConfiguration: {
        EnforceWorkGroupConfiguration: true,
        PublishCloudWatchMetricsEnabled: true,
        BytesScannedCutoffPerQuery: 10 * 1024 ** 3,
        ResultConfiguration: {
          OutputLocation: {
            'Fn::Join': ['', ['s3://', ref(s.stack.archive.bucket), '/athena-results/']],
          },
          EncryptionConfiguration: {
            EncryptionOption: 'SSE_KMS',
            KmsKey: arn(s.stack.archive.key),
          },
        },
      },
    });
    s.template.hasResourceProperties('AWS::Glue::Database', {
      DatabaseInput: { Name: 'skywatch_archive' },
    });
  });

  it('expires Athena query results after a week', () => {
    s.template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([
          {
            Id: 'athena-results',
            Prefix: 'athena-results/',
            ExpirationInDays: 7,
            Status: 'Enabled',
          },
        ]),
      },
    });
  });

  it('is left out when athena is false', () => {
    const { template } = synth({ athena: false });
    template.resourceCountIs('AWS::Athena::WorkGroup', 0);
    template.resourceCountIs('AWS::Glue::Database', 0);
  });
});
