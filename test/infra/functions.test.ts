import { Match } from 'aws-cdk-lib/assertions';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionName } from '../../infra/functions.js';
import { arn, logicalId, ref, SETTINGS, type Synth, synth } from './helpers.js';

let s: Synth;
beforeAll(() => {
  s = synth();
});

const fnProps = (name: FunctionName) =>
  s.template.toJSON().Resources[logicalId(s.stack.functions[name].function)].Properties;
const env = (name: FunctionName): Record<string, string> => fnProps(name).Environment.Variables;

const NAMES: FunctionName[] = [
  'tokenRefresher',
  'reportFetcher',
  'archiveWorker',
  'blockedUrlAlerter',
  'infectionAlerter',
  'cartCustomerWebhook',
  'reportBuilder',
  'alertNotifier',
];

// The `service` dimension of the metrics, which the alarms on them use (service-alarms.test.ts).
const SERVICE_NAMES: Record<FunctionName, string> = {
  tokenRefresher: 'token-refresher',
  reportFetcher: 'report-fetcher',
  archiveWorker: 'report-archive-worker',
  blockedUrlAlerter: 'blocked-url-alerter',
  infectionAlerter: 'infection-alerter',
  cartCustomerWebhook: 'cart-customer-webhook',
  reportBuilder: 'report-builder',
  alertNotifier: 'alert-notifier',
};

describe('SkywatchFunction: every function', () => {
  it('runs on the newest Node.js runtime aws-cdk-lib offers, on arm64, as an ESM bundle', () => {
    const newest = lambda.Runtime.ALL.filter((r) => r.name.startsWith('nodejs'))
      .map((r) => r.name)
      .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))
      .at(-1);
    s.template.resourceCountIs('AWS::Lambda::Function', 8);
    for (const name of NAMES) {
      expect(fnProps(name)).toEqual(
        expect.objectContaining({
          Runtime: newest,
          Architectures: ['arm64'],
          Handler: 'index.handler',
        }),
      );
    }
  });

  it('traces every function actively with X-Ray, its calls only when traceCalls is set', () => {
    for (const name of NAMES) {
      expect(fnProps(name).TracingConfig, name).toEqual({ Mode: 'Active' });
      expect(fnProps(name).Environment.Variables.POWERTOOLS_TRACE_ENABLED, name).toBe('false');
    }
    const { stack, template } = synth({ traceCalls: true });
    const resources = template.toJSON().Resources;
    for (const [name, f] of Object.entries(stack.functions)) {
      const vars = resources[logicalId(f.function)].Properties.Environment.Variables;
      expect(vars.POWERTOOLS_TRACE_ENABLED, name).toBe('true');
    }
  });

  it('has an explicit timeout and memory size per function', () => {
    const sizes = Object.fromEntries(
      NAMES.map((n) => [n, [fnProps(n).Timeout, fnProps(n).MemorySize]]),
    );
    expect(sizes).toEqual({
      tokenRefresher: [30, 256],
      reportFetcher: [900, 1024],
      archiveWorker: [900, 1024],
      blockedUrlAlerter: [300, 512],
      infectionAlerter: [120, 512],
      cartCustomerWebhook: [25, 512],
      reportBuilder: [900, 1024],
      alertNotifier: [120, 256],
    });
  });

  it('logs in JSON to its own log group with the configured retention', () => {
    s.template.resourceCountIs('AWS::Logs::LogGroup', 9); // eight functions and the API access log
    const groups = s.template.toJSON().Resources;
    for (const name of NAMES) {
      const fn = s.stack.functions[name];
      expect(fnProps(name).LoggingConfig).toEqual({
        LogFormat: 'JSON',
        LogGroup: ref(fn.logGroup),
      });
      expect(groups[logicalId(fn.logGroup)]).toEqual(
        expect.objectContaining({ Properties: { RetentionInDays: 30 }, DeletionPolicy: 'Retain' }),
      );
    }
  });

  it('takes the log retention from the settings', () => {
    const { template } = synth({ logRetentionDays: 365 });
    const groups = Object.values(template.findResources('AWS::Logs::LogGroup'));
    expect(groups.map((g) => g.Properties.RetentionInDays)).toEqual(Array(9).fill(365));
  });

  it('sets the Powertools service name, the Skywatch metrics namespace, the log level and source maps', () => {
    for (const name of NAMES) {
      expect(env(name)).toEqual(
        expect.objectContaining({
          POWERTOOLS_SERVICE_NAME: SERVICE_NAMES[name],
          POWERTOOLS_METRICS_NAMESPACE: 'Skywatch',
          LOG_LEVEL: 'INFO',
          NODE_OPTIONS: '--enable-source-maps',
          SKYWATCH_BASE_URL: SETTINGS.baseUrl,
          SKYWATCH_AUTH_URL: SETTINGS.authUrl,
          TOKEN_SECRET_ARN: ref(s.stack.secrets.token) as unknown as string,
        }),
      );
    }
  });

  it('passes names and ARNs only: no environment variable holds a secret value', () => {
    for (const name of NAMES) {
      for (const [key, value] of Object.entries(env(name))) {
        expect(key).not.toMatch(/PASSWORD|CLIENT_SECRET|SIGNING_SECRET|ACCESS_TOKEN|REFRESH_TOKEN/);
        expect(JSON.stringify(value)).not.toContain('SecretString');
      }
    }
  });
});

describe('SkywatchFunction: configuration per function', () => {
  it('gives the token refresher the credentials ARN and reserved concurrency 1', () => {
    expect(fnProps('tokenRefresher').ReservedConcurrentExecutions).toBe(1);
    expect(env('tokenRefresher').CREDENTIALS_SECRET_ARN).toEqual(ref(s.stack.secrets.credentials));
  });

  it('gives the report fetcher the bucket, GSM keys, fan-out queue URL and gzip level', () => {
    expect(env('reportFetcher')).toEqual(
      expect.objectContaining({
        REPORT_BUCKET: ref(s.stack.archive.bucket),
        GSM_KEYS: 'AAAA-BBBB-CCCC-DDDD-EEEE,FFFF-GGGG-HHHH-IIII-JJJJ',
        ARCHIVE_QUEUE_URL: ref(s.stack.archiveQueue),
        ARCHIVE_GZIP_LEVEL: '2',
      }),
    );
    expect(env('archiveWorker').ARCHIVE_GZIP_LEVEL).toBe('2');
  });

  it('gives the alerters the topic and their thresholds', () => {
    expect(env('blockedUrlAlerter')).toEqual(
      expect.objectContaining({
        ALERT_TOPIC_ARN: ref(s.stack.alerts.topic),
        BLOCKED_URL_MIN_COUNT: '200',
        BLOCKED_URL_BASELINE_MULTIPLIER: '3',
      }),
    );
    expect(env('infectionAlerter')).toEqual(
      expect.objectContaining({ ALERT_TOPIC_ARN: ref(s.stack.alerts.topic) }),
    );
    // Health alerts are the infection alerter's only job: no switch, no v1 infection settings.
    const retired = ['INFECTION_SUMMARY_THRESHOLD', 'ALERT_ON_CLEAN', 'HEALTH_ALERTS'];
    expect(Object.keys(env('infectionAlerter')).filter((n) => retired.includes(n))).toEqual([]);
  });

  it('takes thresholds, tolerance and log level from the settings', () => {
    const { stack, template } = synth({
      blockedUrlMinCount: 50,
      blockedUrlBaselineMultiplier: 2.5,
      webhookToleranceSeconds: 120,
      logLevel: 'DEBUG',
      archiveGzipLevel: 6,
    });
    const envOf = (name: FunctionName) =>
      template.toJSON().Resources[logicalId(stack.functions[name].function)].Properties.Environment
        .Variables;
    expect(envOf('blockedUrlAlerter')).toEqual(
      expect.objectContaining({
        BLOCKED_URL_MIN_COUNT: '50',
        BLOCKED_URL_BASELINE_MULTIPLIER: '2.5',
        LOG_LEVEL: 'DEBUG',
      }),
    );
    expect(envOf('cartCustomerWebhook').WEBHOOK_TOLERANCE_SECONDS).toBe('120');
    expect(envOf('reportFetcher').ARCHIVE_GZIP_LEVEL).toBe('6');
    expect(envOf('archiveWorker').ARCHIVE_GZIP_LEVEL).toBe('6');
  });

  it("starts every function with the runtime's own V8 flags: no exec wrapper", () => {
    const { stack, template } = synth({});
    const resources = template.toJSON().Resources;
    for (const [name, f] of Object.entries(stack.functions)) {
      const vars = resources[logicalId(f.function)].Properties.Environment.Variables;
      expect(vars.AWS_LAMBDA_EXEC_WRAPPER, name).toBeUndefined();
      expect(vars.NODE_OPTIONS, name).toBe('--enable-source-maps');
    }
  });

  it('gives the webhook both secret ARNs, the bucket and the signature tolerance', () => {
    expect(env('cartCustomerWebhook')).toEqual(
      expect.objectContaining({
        CREDENTIALS_SECRET_ARN: ref(s.stack.secrets.credentials),
        REPORT_BUCKET: ref(s.stack.archive.bucket),
        WEBHOOK_TOLERANCE_SECONDS: '300',
      }),
    );
  });

  it('feeds the site worker from the fan-out queue one site at a time, reporting partial failures', () => {
    s.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: arn(s.stack.archiveQueue),
      FunctionName: ref(s.stack.functions.archiveWorker.function),
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 5 },
    });
  });
});

describe('SkywatchFunction: failed asynchronous invocations', () => {
  const asyncConfig: [FunctionName, number, number][] = [
    ['tokenRefresher', 0, 300],
    ['reportFetcher', 2, 21_600],
    ['blockedUrlAlerter', 1, 3600],
    ['infectionAlerter', 0, 60],
  ];
  for (const [name, retries, maxAge] of asyncConfig) {
    it(`sends failed ${name} events to its dead-letter queue after ${retries} retries`, () => {
      const fn = s.stack.functions[name];
      if (!fn.deadLetterQueue) throw new Error(`${name} has no dead-letter queue`);
      s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
        FunctionName: ref(fn.function),
        MaximumRetryAttempts: retries,
        MaximumEventAgeInSeconds: maxAge,
        DestinationConfig: { OnFailure: { Destination: arn(fn.deadLetterQueue) } },
      });
    });
  }

  it('gives no dead-letter queue to the synchronously invoked functions', () => {
    expect(s.stack.functions.cartCustomerWebhook.deadLetterQueue).toBeUndefined();
    expect(s.stack.functions.archiveWorker.deadLetterQueue).toBeUndefined();
    s.template.resourceCountIs('AWS::Lambda::EventInvokeConfig', 5);
    s.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      Qualifier: '$LATEST',
      DestinationConfig: Match.anyValue(),
    });
  });
});
