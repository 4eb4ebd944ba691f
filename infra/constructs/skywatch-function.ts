import { existsSync } from 'node:fs';
import {
  AssetHashType,
  DockerImage,
  Duration,
  type ILocalBundling,
  RemovalPolicy,
  Validations,
} from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as cwActions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { bundleStackFunction, FUNCTION_NODE_OPTIONS, PROJECT_ROOT } from '../bundling.js';
import { deadLetterQueue, queueDepthAlarm } from './secure-queue.js';

/** The newest Node.js runtime aws-cdk-lib 2.276 knows; cdk-nag AwsSolutions-L1 checks it. */
export const FUNCTION_RUNTIME = lambda.Runtime.NODEJS_24_X;

export interface SkywatchFunctionProps {
  /** Entry file, absolute or relative to the project root (`functions/<name>/handler.ts`). */
  readonly entry: string;
  /**
   * The stack's other entries, bundled in the same esbuild run as this one by whichever function
   * a synth bundles first (infra/bundling.ts): the modules they share are parsed once.
   */
  readonly bundleWith?: readonly string[];
  /** Service name: the `POWERTOOLS_SERVICE_NAME` and the `service` metric dimension. */
  readonly serviceName: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly memorySize: number;
  /** Names and ARNs only; never a secret value. */
  readonly environment: Readonly<Record<string, string>>;
  /** Topic the function's alarms notify. */
  readonly alarmTopic: sns.ITopic;
  readonly logRetention: logs.RetentionDays;
  /** @default - unreserved */
  readonly reservedConcurrentExecutions?: number;
  /**
   * Invoked asynchronously (by a schedule): failed events go to a dead-letter queue with an
   * alarm on its depth, after this many retries.
   * @default - not invoked asynchronously, no dead-letter queue
   */
  readonly asyncRetryAttempts?: number;
  /**
   * For a function not invoked asynchronously: who keeps a failed invocation instead of a
   * dead-letter queue (its caller, or its event source's redrive). Required then; it is the
   * written reason given to cdk-nag's Serverless-LambdaDLQ.
   * @default - none: required when asyncRetryAttempts is unset
   */
  readonly failuresKeptBy?: string;
  /** Oldest age of an asynchronous event before it is given up. @default Duration.hours(6) */
  readonly maxEventAge?: Duration;
}

/**
 * One Skywatch Lambda function: esbuild-bundled ESM on arm64, its own role (no managed
 * policies), its own log group with retention, alarms on errors and throttles and, when it is
 * invoked asynchronously, a dead-letter queue for failed events with an alarm on its depth.
 */
export class SkywatchFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  /** Failed asynchronous invocations land here. */
  readonly deadLetterQueue: sqs.Queue | undefined;

  constructor(scope: Construct, id: string, props: SkywatchFunctionProps) {
    super(scope, id);
    validate(props);

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Skywatch ${props.serviceName}`,
    });
    // In place of AWSLambdaBasicExecutionRole: write to this function's log group only.
    this.logGroup.grantWrite(this.role);

    if (props.asyncRetryAttempts !== undefined) {
      this.deadLetterQueue = deadLetterQueue(
        this,
        'DeadLetterQueue',
        `${props.serviceName}'s failed asynchronous invocations`,
      );
    }

    this.function = new lambda.Function(this, 'Function', {
      code: bundledCode(props.entry, props.bundleWith ?? []),
      handler: 'index.handler',
      description: props.description,
      runtime: FUNCTION_RUNTIME,
      architecture: lambda.Architecture.ARM_64,
      timeout: props.timeout,
      memorySize: props.memorySize,
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: {
        ...props.environment,
        POWERTOOLS_SERVICE_NAME: props.serviceName,
        POWERTOOLS_METRICS_NAMESPACE: 'Skywatch',
        NODE_OPTIONS: FUNCTION_NODE_OPTIONS,
      },
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      retryAttempts: props.asyncRetryAttempts,
      maxEventAge:
        props.asyncRetryAttempts === undefined
          ? undefined
          : (props.maxEventAge ?? Duration.hours(6)),
      onFailure: this.deadLetterQueue
        ? new destinations.SqsDestination(this.deadLetterQueue)
        : undefined,
    });

    Validations.of(this.function).acknowledge({
      id: 'Serverless-LambdaDLQ',
      reason: this.deadLetterQueue
        ? 'Failed asynchronous invocations go to an on-failure destination (DeadLetterQueue, alarmed), which keeps the error with the event; a DeadLetterConfig as well would deliver each failure twice.'
        : `Not invoked asynchronously, so a dead-letter queue would never receive anything: ${props.failuresKeptBy}`,
    });
    this.traceActively();

    const alarmAction = new cwActions.SnsAction(props.alarmTopic);
    for (const [name, metric] of [
      ['Errors', this.function.metricErrors({ period: Duration.minutes(5) })],
      ['Throttles', this.function.metricThrottles({ period: Duration.minutes(5) })],
    ] as const) {
      const alarm = new cloudwatch.Alarm(this, `${name}Alarm`, {
        alarmDescription: `Skywatch ${props.serviceName}: ${name.toLowerCase()} in the last 5 minutes.`,
        metric: metric.with({ statistic: cloudwatch.Stats.SUM }),
        threshold: 1,
        evaluationPeriods: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      alarm.addAlarmAction(alarmAction);
      alarm.addOkAction(alarmAction);
    }
    if (this.deadLetterQueue) {
      queueDepthAlarm(this, 'DeadLetterAlarm', {
        queue: this.deadLetterQueue,
        topic: props.alarmTopic,
        description: `Skywatch ${props.serviceName}: failed asynchronous invocations are waiting in its dead-letter queue.`,
      });
    }
  }

  /**
   * Active X-Ray tracing, set on the function resource rather than through the `tracing` prop:
   * the prop writes the X-Ray statement, whose resource must be "*" (the two actions have no
   * resource type), into the role's default policy, and acknowledging a "*" there would hide
   * any other. Its own policy keeps the acknowledgement to these two actions.
   */
  private traceActively(): void {
    const cfn = this.function.node.defaultChild as lambda.CfnFunction;
    cfn.tracingConfig = { mode: lambda.Tracing.ACTIVE };
    const policy = new iam.Policy(this, 'TracingPolicy', {
      roles: [this.role],
      statements: [
        new iam.PolicyStatement({
          actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'],
          resources: ['*'],
        }),
      ],
    });
    this.function.node.addDependency(policy);
    Validations.of(policy).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'X-Ray PutTraceSegments and PutTelemetryRecords have no resource type, so they take "*"; this policy holds those two actions only.',
    });
  }
}

function validate(props: SkywatchFunctionProps): void {
  if (!existsSync(props.entry)) {
    throw new Error(`SkywatchFunction: entry ${props.entry} does not exist.`);
  }
  if (props.timeout.toSeconds() < 1 || props.timeout.toSeconds() > 900) {
    throw new Error(`SkywatchFunction ${props.serviceName}: timeout must be 1–900 s.`);
  }
  if (!Number.isInteger(props.memorySize) || props.memorySize < 128 || props.memorySize > 10_240) {
    throw new Error(`SkywatchFunction ${props.serviceName}: memorySize must be 128–10240 MB.`);
  }
  if ((props.asyncRetryAttempts === undefined) === (props.failuresKeptBy === undefined)) {
    throw new Error(
      `SkywatchFunction ${props.serviceName}: give exactly one of asyncRetryAttempts (invoked asynchronously) and failuresKeptBy (not).`,
    );
  }
  if (props.asyncRetryAttempts !== undefined && ![0, 1, 2].includes(props.asyncRetryAttempts)) {
    throw new Error(`SkywatchFunction ${props.serviceName}: asyncRetryAttempts must be 0, 1 or 2.`);
  }
  for (const [name, value] of Object.entries(props.environment)) {
    if (/SECRET$|PASSWORD|TOKEN$/i.test(name)) {
      // Secret values belong in Secrets Manager; only their ARNs go in the environment.
      throw new Error(
        `SkywatchFunction ${props.serviceName}: environment ${name} looks like a secret value.`,
      );
    }
    if (value.length === 0) {
      throw new Error(`SkywatchFunction ${props.serviceName}: environment ${name} is empty.`);
    }
  }
}

/**
 * The function's code asset: its entry bundled on this machine (infra/bundling.ts), the AWS SDK
 * inside rather than taken from the runtime, so the deployed SDK is the one the tests ran with.
 * Hashed by the bundle, as NodejsFunction hashes; a synth that skips bundling (the template
 * tests) hashes nothing.
 */
function bundledCode(entry: string, bundleWith: readonly string[]): lambda.Code {
  return lambda.Code.fromAsset(PROJECT_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Never pulled: bundling is local, and a failure to bundle stops the synth.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x'),
      local: new LocalBundling(entry, bundleWith),
    },
  });
}

/**
 * Bundles one entry into the asset's directory. A class with the entry as its one field: CDK
 * stages assets of the same source and bundling options once, and tells them apart by those
 * options as JSON, which keeps the entry and drops a function.
 */
class LocalBundling implements ILocalBundling {
  constructor(
    readonly entry: string,
    /** The stack's other functions, bundled in the same esbuild run (infra/bundling.ts). */
    readonly stackEntries: readonly string[],
  ) {}

  tryBundle(outputDir: string): boolean {
    bundleStackFunction(this.entry, this.stackEntries, outputDir);
    return true;
  }
}
