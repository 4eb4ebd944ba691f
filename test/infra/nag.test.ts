import { App, Validations } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../infra/skywatch-app.js';
import { cdkJsonContext, SETTINGS, synth, synthToChange } from './helpers.js';

/** Every unacknowledged finding of both packs the app runs, one line each. */
const findings = (scope: IConstruct) =>
  [new AwsSolutionsChecks(), new ServerlessChecks()].flatMap((pack) =>
    pack
      .validateScope(scope)
      .violations.map(
        (v) =>
          `${v.severity} ${v.ruleName} at ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
      ),
  );

interface Acknowledgement {
  readonly path: string;
  readonly id: string;
  readonly reason: string;
}

function acknowledgements(scope: IConstruct): Acknowledgement[] {
  const found: Acknowledgement[] = [];
  const walk = (c: IConstruct) => {
    for (const entry of c.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        found.push({ path: c.node.path, id: id.replace(/^Annotation::/, ''), reason });
      }
    }
    c.node.children.forEach(walk);
  };
  walk(scope);
  return found;
}

describe('cdk-nag AwsSolutionsChecks and ServerlessChecks', () => {
  it('finds nothing unacknowledged in the stack, warnings included', () => {
    expect(findings(synth().app)).toEqual([]);
  });

  it('finds nothing unacknowledged with every optional part switched on', () => {
    const { app } = synth({
      alertEmail: 'soc@example.com',
      opsEmail: 'ops@example.com',
      athena: true,
      reportLinks: true,
    });
    expect(findings(app)).toEqual([]);
  });

  it('reports what it is not told about (the check can fail)', () => {
    const { app, stack } = synthToChange();
    new s3.Bucket(stack, 'Careless');
    stack.functions.archiveWorker.role.addToPolicy(
      new iam.PolicyStatement({ actions: ['s3:*'], resources: ['*'] }),
    );
    expect(findings(app)).toEqual(
      expect.arrayContaining([
        'error AwsSolutions-S1 at Skywatch/Careless/Resource',
        'error AwsSolutions-S10 at Skywatch/Careless/Resource',
        'error AwsSolutions-IAM5[Action::s3:*] at Skywatch/ArchiveWorker/Role/DefaultPolicy/Resource',
        'error AwsSolutions-IAM5[Resource::*] at Skywatch/ArchiveWorker/Role/DefaultPolicy/Resource',
      ]),
    );
  });

  it('reports what the Serverless pack is not told about (the check can fail)', () => {
    const { app, stack } = synthToChange();
    new sqs.Queue(stack, 'Careless');
    const fn = stack.functions.archiveWorker.function.node.defaultChild as lambda.CfnFunction;
    fn.tracingConfig = { mode: lambda.Tracing.PASS_THROUGH };
    expect(findings(app)).toEqual(
      expect.arrayContaining([
        'error Serverless-SQSRedrivePolicy at Skywatch/Careless/Resource',
        'warning Serverless-LambdaTracing at Skywatch/ArchiveWorker/Function/Resource',
      ]),
    );
  });

  it('runs on every synth of the app and fails it on an unacknowledged finding', () => {
    const app = new App({
      context: { ...cdkJsonContext(), skywatch: SETTINGS, 'aws:cdk:bundling-stacks': [] },
    });
    const { stack } = createApp(app);
    new s3.Bucket(stack, 'Careless');
    expect(() => app.synth()).toThrow(/AwsSolutions-S10/);
  });

  it('fails the synth on a warning-level finding too, so no finding reaches a written report', () => {
    const app = new App({
      context: { ...cdkJsonContext(), skywatch: SETTINGS, 'aws:cdk:bundling-stacks': [] },
    });
    const { stack } = createApp(app);
    // AwsSolutions-DDB3 (no point-in-time recovery) is one of the pack's warnings.
    new dynamodb.Table(stack, 'Careless', {
      partitionKey: { name: 'id', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    });
    expect(() => app.synth()).toThrow(/AwsSolutions-DDB3/);
  });

  it('runs the Serverless pack on every synth of the app too', () => {
    const app = new App({
      context: { ...cdkJsonContext(), skywatch: SETTINGS, 'aws:cdk:bundling-stacks': [] },
    });
    const { stack } = createApp(app);
    new sqs.Queue(stack, 'Careless', { enforceSSL: true });
    expect(() => app.synth()).toThrow(/Serverless-SQSRedrivePolicy/);
  });

  it('synthesizes the app cleanly with the checks on', () => {
    const app = new App({
      context: { ...cdkJsonContext(), skywatch: SETTINGS, 'aws:cdk:bundling-stacks': [] },
    });
    createApp(app);
    expect(() => app.synth()).not.toThrow();
  });
});

describe('cdk-nag acknowledgements', () => {
  const acks = acknowledgements(synth().app);

  it('gives every acknowledgement a written reason', () => {
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.reason.length, `${ack.path} ${ack.id}`).toBeGreaterThanOrEqual(40);
    }
  });

  it('acknowledges only the reviewed rules', () => {
    const rules = [...new Set(acks.map((a) => a.id.replace(/\[.*$/, '')))].sort();
    expect(rules).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-IAM5',
      'AwsSolutions-S1',
      'AwsSolutions-SMG4',
      'AwsSolutions-SQS3',
      'Serverless-LambdaDLQ',
      'Serverless-LambdaEventSourceMappingDestination',
      'Serverless-SQSRedrivePolicy',
    ]);
  });

  it('acknowledges wildcards only from CDK grant action sets and object prefixes, never a bare "*"', () => {
    const iam5 = [
      ...new Set(
        acks
          .filter((a) => a.id.startsWith('AwsSolutions-IAM5') && !a.path.endsWith('/TracingPolicy'))
          .map((a) => a.id),
      ),
    ];
    for (const id of iam5) {
      expect(id).toMatch(
        /^AwsSolutions-IAM5\[(Action::(s3:GetObject\*|s3:GetBucket\*|s3:List\*|s3:Abort\*|s3:DeleteObject\*|kms:GenerateDataKey\*|kms:ReEncrypt\*)|Resource::<ArchiveBucket[0-9A-F]+\.Arn>\/(reports|reports\/alert-events|manifests|pages|state|state\/report-fetcher|state\/notifier)\/\*)\]$/,
      );
    }
  });

  it('acknowledges a bare "*" only on the X-Ray policies, one per function', () => {
    const bare = acks.filter((a) => a.id === 'AwsSolutions-IAM5[Resource::*]');
    expect(bare.map((a) => a.path).sort()).toEqual(
      [
        'TokenRefresher',
        'ReportFetcher',
        'ArchiveWorker',
        'BlockedUrlAlerter',
        'InfectionAlerter',
        'CartCustomerWebhook',
        'ReportBuilder',
        'AlertNotifier',
      ]
        .map((fn) => `Skywatch/${fn}/TracingPolicy`)
        .sort(),
    );
  });

  it('acknowledges the e-mail redrive only on e-mail subscriptions', () => {
    const { app } = synth({ alertEmail: 'soc@example.com' });
    const paths = acknowledgements(app)
      .filter((a) => a.id === 'Serverless-SNSRedrivePolicy')
      .map((a) => a.path);
    expect(paths).toEqual([
      'Skywatch/Alerts/Topic/soc@example.com',
      'Skywatch/Ops/Topic/soc@example.com',
    ]);
  });

  it('acknowledges the missing S3 access log only on the access-log bucket itself', () => {
    expect(acks.filter((a) => a.id === 'AwsSolutions-S1').map((a) => a.path)).toEqual([
      'Skywatch/Archive/AccessLogs',
    ]);
  });
});
