import { Annotations, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { PROJECT_ROOT } from './bundling.js';
import { NOTIFIER_QUEUE } from './config/notifier-queue.js';
import { resolveSettings } from './config/resolve-settings.js';
import type { ResolvedSettings, SkywatchSettings } from './config/settings.js';
import { AlertMutes } from './constructs/alert-mutes.js';
import { AlertRouting } from './constructs/alert-routing.js';
import { ArchiveQuery } from './constructs/archive-query.js';
import { BUCKET_PREFIXES, ReportBucket } from './constructs/report-bucket.js';
import { Schedules } from './constructs/schedules.js';
import { deadLetterQueue, queueDepthAlarm, secureQueue } from './constructs/secure-queue.js';
import { SecureTopic } from './constructs/secure-topic.js';
import { ServiceAlarms } from './constructs/service-alarms.js';
import type { SkywatchFunction } from './constructs/skywatch-function.js';
import { SkywatchSecrets } from './constructs/skywatch-secrets.js';
import { WebhookApi } from './constructs/webhook-api.js';
import { ARCHIVE_WORKER_TIMEOUT, createFunctions, type FunctionName } from './functions.js';
import { createReportLinks, type ReportLinks } from './report-links.js';

export interface SkywatchStackProps extends StackProps {
  /** Operator settings; validated here, with every problem listed at synth time. */
  readonly settings: SkywatchSettings;
  /** Directory the function entries are resolved from. @default the repository root */
  readonly projectRoot?: string;
}

/** Everything Skywatch deploys: one stack, one `cdk deploy`. */
export class SkywatchStack extends Stack {
  readonly settings: ResolvedSettings;
  readonly functions: Record<FunctionName, SkywatchFunction>;
  readonly secrets: SkywatchSecrets;
  readonly archive: ReportBucket;
  readonly alerts: SecureTopic;
  readonly ops: SecureTopic;
  readonly archiveQueue: sqs.Queue;
  readonly archiveDeadLetterQueue: sqs.Queue;
  readonly notifierQueue: sqs.Queue;
  readonly notifierDeadLetterQueue: sqs.Queue;
  readonly alertRouting: AlertRouting;
  readonly alertMutes: AlertMutes;
  readonly webhook: WebhookApi;
  readonly schedules: Schedules;
  readonly serviceAlarms: ServiceAlarms;
  readonly archiveQuery: ArchiveQuery | undefined;
  /** The signed-link site of the daily pages; undefined when `reportLinks` is false. */
  readonly reportLinks: ReportLinks | undefined;

  constructor(scope: Construct, id: string, props: SkywatchStackProps) {
    super(scope, id, props);
    const s = resolveSettings(props.settings);
    this.settings = s;
    warnOnPlaceholders(this, s);

    const secrets = new SkywatchSecrets(this, 'Secrets');
    this.secrets = secrets;
    const archive = new ReportBucket(this, 'Archive', {
      transitionDays: s.reportTransitionDays,
      expirationDays: s.reportExpirationDays,
      noncurrentVersionExpirationDays: s.noncurrentVersionExpirationDays,
      accessLogExpirationDays: s.accessLogExpirationDays,
    });
    this.archive = archive;
    const alerts = new SecureTopic(this, 'Alerts', {
      displayName: 'Skywatch alerts',
      email: s.alertEmail,
    });
    this.alerts = alerts;
    const ops = new SecureTopic(this, 'Ops', {
      displayName: 'Skywatch operations',
      email: s.opsEmail ?? s.alertEmail,
      allowCloudWatchAlarms: true,
    });
    this.ops = ops;

    const archiveDeadLetters = deadLetterQueue(
      this,
      'ArchiveDeadLetterQueue',
      "the archive queue (hand-overs of a day's job that failed every delivery)",
    );
    const archiveQueue = secureQueue(this, 'ArchiveQueue', {
      visibilityTimeout: Duration.seconds(ARCHIVE_WORKER_TIMEOUT.toSeconds() * 6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: archiveDeadLetters, maxReceiveCount: s.archiveMaxReceiveCount },
    });
    this.archiveQueue = archiveQueue;
    this.archiveDeadLetterQueue = archiveDeadLetters;
    queueDepthAlarm(this, 'ArchiveDeadLetterAlarm', {
      queue: archiveDeadLetters,
      topic: ops.topic,
      description:
        "Skywatch report fetcher: a day's job failed after every retry; the next daily run takes it over (docs/operations.md).",
    });

    // Alerter → SQS FIFO → notifier, one message per destination and event, grouped per
    // destination and alert: in order, de-duplicated, and a failing destination holds back
    // only its own group (docs/operations.md, "Delivery"). The redrive policy keeps what never
    // got through; a FIFO queue's dead-letter queue is FIFO too, so a redrive keeps the order.
    const notifierDeadLetters = deadLetterQueue(
      this,
      'NotifierDeadLetterQueue',
      'the notifier queue (alert deliveries that failed every retry, or that a destination refused)',
      { fifo: true },
    );
    const notifierQueue = secureQueue(this, 'NotifierQueue', {
      fifo: true,
      deduplicationScope: sqs.DeduplicationScope.MESSAGE_GROUP,
      fifoThroughputLimit: sqs.FifoThroughputLimit.PER_MESSAGE_GROUP_ID,
      // For an invocation cut by its timeout; a failed delivery sets its own, shorter, back-off.
      visibilityTimeout: Duration.seconds(NOTIFIER_QUEUE.visibilitySeconds),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: {
        queue: notifierDeadLetters,
        maxReceiveCount: NOTIFIER_QUEUE.maxReceiveCount,
      },
    });
    this.notifierQueue = notifierQueue;
    this.notifierDeadLetterQueue = notifierDeadLetters;
    queueDepthAlarm(this, 'NotifierDeadLetterAlarm', {
      queue: notifierDeadLetters,
      topic: ops.topic,
      description:
        'Skywatch alert notifier: a destination refused an alert, or it failed after every retry; the message says which (docs/operations.md, "Runbook: notifier dead letters").',
    });

    // Which destinations each alert goes to (docs/operations.md, "Routing"), editable without
    // a deploy; the alerter routes each event as it queues it for the notifier.
    const alertRouting = new AlertRouting(this, 'AlertRouting', { document: s.alertRouting });
    this.alertRouting = alertRouting;
    // Maintenance windows beside it (docs/operations.md, "Maintenance windows").
    const alertMutes = new AlertMutes(this, 'AlertMutes');
    this.alertMutes = alertMutes;

    const projectRoot = props.projectRoot ?? PROJECT_ROOT;
    this.reportLinks = s.reportLinks
      ? createReportLinks(this, { settings: s, archive, alarmTopic: ops.topic, projectRoot })
      : undefined;

    this.functions = createFunctions(this, {
      projectRoot,
      settings: s,
      secrets,
      archive,
      alertTopic: alerts.topic,
      opsTopic: ops.topic,
      archiveQueue,
      notifierQueue,
      notifierDeadLetterQueue: notifierDeadLetters,
      pageLinks: this.reportLinks?.deps,
      alertRouting,
      alertMutes,
    });
    const f = this.functions;

    // '06:00' → hour 6, minute 0: EventBridge cron fields without leading zeros.
    const [hour, minute] = s.reportFetchTimeUtc.split(':').map((part) => String(Number(part)));
    this.schedules = new Schedules(this, 'Schedules', {
      schedules: {
        TokenRefresher: {
          target: f.tokenRefresher,
          schedule: events.Schedule.rate(Duration.minutes(s.tokenRefreshMinutes)),
          description: 'Skywatch: refresh the OAuth tokens before the access token expires',
        },
        ReportFetcher: {
          target: f.reportFetcher,
          schedule: events.Schedule.cron({ hour, minute }),
          description: "Skywatch: archive the previous day's reports",
        },
        ReportBuilder: {
          target: f.reportBuilder,
          // Two hours after the archive starts: a day handed over to the archive worker is complete
          // by then, and a page built early is rebuilt by hand ({"date": …}) or the next day.
          schedule: events.Schedule.cron({ hour: String((Number(hour) + 2) % 24), minute }),
          description:
            "Skywatch: build the day's HTML report and, after a month's last day, its seat CSV",
        },
        BlockedUrlAlerter: {
          target: f.blockedUrlAlerter,
          schedule: events.Schedule.rate(Duration.minutes(s.blockedUrlAlertMinutes)),
          description: 'Skywatch: look for blocked-URL spikes',
        },
        InfectionAlerter: {
          target: f.infectionAlerter,
          schedule: events.Schedule.rate(Duration.minutes(s.infectionAlertMinutes)),
          description: 'Skywatch: look for newly infected endpoints',
        },
      },
    });

    const webhook = new WebhookApi(this, 'Webhook', {
      handler: f.cartCustomerWebhook.function,
      rateLimit: s.webhookRateLimit,
      burstLimit: s.webhookBurstLimit,
      logRetention: s.logRetentionDays as logs.RetentionDays,
    });
    this.webhook = webhook;

    this.serviceAlarms = new ServiceAlarms(this, 'ServiceAlarms', {
      topic: ops.topic,
      archiveHeartbeatHours: s.archiveHeartbeatHours,
      pageLinks: this.reportLinks !== undefined,
    });

    this.archiveQuery = s.athena
      ? new ArchiveQuery(this, 'ArchiveQuery', {
          bucket: archive.bucket,
          key: archive.key,
          resultsPrefix: BUCKET_PREFIXES.athenaResults,
          reportsPrefix: BUCKET_PREFIXES.reports,
          gsmKeys: s.gsmKeys,
          retentionDays: s.reportExpirationDays,
        })
      : undefined;
    if (this.archiveQuery) {
      new CfnOutput(this, 'AthenaWorkGroup', { value: this.archiveQuery.workGroup.ref });
    }

    new CfnOutput(this, 'WebhookUrl', { value: webhook.url });
    new CfnOutput(this, 'ReportBucketName', { value: archive.bucket.bucketName });
    new CfnOutput(this, 'AlertTopicArn', { value: alerts.topic.topicArn });
    new CfnOutput(this, 'OpsTopicArn', { value: ops.topic.topicArn });
    new CfnOutput(this, 'CredentialsSecretArn', { value: secrets.credentials.secretArn });
    new CfnOutput(this, 'TokenSecretArn', { value: secrets.token.secretArn });
    new CfnOutput(this, 'NotifierSecretArn', { value: secrets.notifier.secretArn });
    new CfnOutput(this, 'NotifierDeadLetterQueueUrl', { value: notifierDeadLetters.queueUrl });
    if (this.reportLinks) {
      const { site, key } = this.reportLinks;
      new CfnOutput(this, 'ReportSiteDomain', { value: site.distribution.distributionDomainName });
      new CfnOutput(this, 'ReportLinkKeySecretArn', { value: key.secret.secretArn });
    }
    new CfnOutput(this, 'AlertRoutingParameter', { value: alertRouting.parameter.parameterName });
    new CfnOutput(this, 'AlertMutesParameter', { value: alertMutes.parameter.parameterName });
  }
}

/** Synth works with the example values of cdk.json; deploying them would not. */
function warnOnPlaceholders(stack: Stack, s: ResolvedSettings): void {
  for (const [name, url] of [
    ['baseUrl', s.baseUrl],
    ['authUrl', s.authUrl],
  ] as const) {
    if (new URL(url).hostname.endsWith('.example')) {
      Annotations.of(stack).addWarningV2(
        'skywatch:placeholderUrl',
        `skywatch.${name} is the example value ${url}; set the real service URL before deploying.`,
      );
    }
  }
}
