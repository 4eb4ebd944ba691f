import * as path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as lambdaEvents from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { NOTIFIER_QUEUE } from './config/notifier-queue.js';
import type { ResolvedSettings } from './config/settings.js';
import type { AlertMutes } from './constructs/alert-mutes.js';
import type { AlertRouting } from './constructs/alert-routing.js';
import { BUCKET_PREFIXES, type ReportBucket } from './constructs/report-bucket.js';
import { SkywatchFunction } from './constructs/skywatch-function.js';
import type { SkywatchSecrets } from './constructs/skywatch-secrets.js';
import { REPORT_FETCHER_MEMORY_MB } from './function-memory.js';
import {
  grantPrefixDelete,
  grantPrefixRead,
  grantPrefixWrite,
  grantTopicPublish,
} from './grants.js';

/** Entry files, relative to the project root; infra knows a function only by its entry. */
export const FUNCTION_ENTRIES = {
  tokenRefresher: 'functions/token-refresher/handler.ts',
  reportFetcher: 'functions/report-fetcher/handler.ts',
  archiveWorker: 'functions/archive-worker/handler.ts',
  blockedUrlAlerter: 'functions/blocked-url-alerter/handler.ts',
  infectionAlerter: 'functions/infection-alerter/handler.ts',
  cartCustomerWebhook: 'functions/cart-customer-webhook/handler.ts',
  reportBuilder: 'functions/report-builder/handler.ts',
  alertNotifier: 'functions/alert-notifier/handler.ts',
} as const;

export type FunctionName = keyof typeof FUNCTION_ENTRIES;

/** The custom resource that makes the report links' key pair (infra/constructs/page-link-key.ts). */
export const PAGE_LINK_KEY_ENTRY = 'functions/page-link-key/handler.ts';

/** The report site's links, when it is on (docs/operations.md, "Report links"). */
export interface PageLinkDeps {
  /** `https://` and the distribution's or the operator's domain. */
  readonly origin: string;
  /** The CloudFront public key's id. */
  readonly keyPairId: string;
  /** Holds the private key; read by the functions that sign links, by nothing else. */
  readonly secret: secretsmanager.ISecret;
  readonly days: number;
}

/**
 * The archive worker may run as long as Lambda allows: a day's job goes on until a reserve
 * before this. Its queue gets six times that of visibility, as Lambda advises for SQS.
 */
export const ARCHIVE_WORKER_TIMEOUT = Duration.minutes(15);

export interface FunctionDeps {
  readonly projectRoot: string;
  readonly settings: ResolvedSettings;
  readonly secrets: SkywatchSecrets;
  readonly archive: ReportBucket;
  readonly alertTopic: sns.ITopic;
  readonly opsTopic: sns.ITopic;
  readonly archiveQueue: sqs.IQueue;
  /** Health alerts from the topic, for the notifier; and where refused deliveries go. */
  readonly notifierQueue: sqs.IQueue;
  readonly notifierDeadLetterQueue: sqs.IQueue;
  /** Present when the report site is on: the digest and the report builder sign links. */
  readonly pageLinks?: PageLinkDeps;
  /** The routing document's parameter, which the infection alerter reads. */
  readonly alertRouting: AlertRouting;
  /** The maintenance windows' parameter, which the infection alerter reads. */
  readonly alertMutes: AlertMutes;
}

/** The notifier's timeout (infra/config/notifier-queue.ts). */
export const NOTIFIER_TIMEOUT = Duration.seconds(NOTIFIER_QUEUE.timeoutSeconds);

/**
 * Creates the eight functions (the report fetcher's archive worker among them) with exactly the
 * grants each needs. Nothing but the token refresher writes the token secret.
 */
export function createFunctions(
  scope: Construct,
  deps: FunctionDeps,
): Record<FunctionName, SkywatchFunction> {
  const { settings: s, secrets, archive, alertTopic, archiveQueue } = deps;
  const bucket = archive.bucket;
  const common = {
    alarmTopic: deps.opsTopic,
    logRetention: s.logRetentionDays as logs.RetentionDays,
    // Every function's entry, bundled together by whichever the synth bundles first.
    bundleWith: Object.values(FUNCTION_ENTRIES).map((e) => path.join(deps.projectRoot, e)),
  };
  const env = (extra: Record<string, string>) => ({
    SKYWATCH_BASE_URL: s.baseUrl,
    SKYWATCH_AUTH_URL: s.authUrl,
    TOKEN_SECRET_ARN: secrets.token.secretArn,
    LOG_LEVEL: s.logLevel,
    POWERTOOLS_TRACE_ENABLED: String(s.traceCalls),
    ...extra,
  });
  const entry = (name: FunctionName) => path.join(deps.projectRoot, FUNCTION_ENTRIES[name]);
  const gsmKeys = s.gsmKeys.join(',');
  const links = deps.pageLinks;
  const linkEnv: Record<string, string> = links
    ? {
        PAGE_LINK_ORIGIN: links.origin,
        PAGE_LINK_KEY_PAIR_ID: links.keyPairId,
        PAGE_LINK_KEY_SECRET_ARN: links.secret.secretArn,
        PAGE_LINK_DAYS: String(links.days),
      }
    : {};

  const tokenRefresher = new SkywatchFunction(scope, 'TokenRefresher', {
    ...common,
    entry: entry('tokenRefresher'),
    serviceName: 'token-refresher',
    description: 'Refreshes the Skywatch OAuth tokens; the only writer of the token secret',
    timeout: Duration.seconds(30),
    memorySize: 256,
    // One at a time: two refreshers would race on the rotating refresh token.
    reservedConcurrentExecutions: 1,
    asyncRetryAttempts: 0,
    maxEventAge: Duration.minutes(Math.max(1, s.tokenRefreshMinutes)),
    environment: env({ CREDENTIALS_SECRET_ARN: secrets.credentials.secretArn }),
  });
  secrets.credentials.grantRead(tokenRefresher.function);
  secrets.token.grantRead(tokenRefresher.function);
  secrets.token.grantWrite(tokenRefresher.function);

  const reportFetcher = new SkywatchFunction(scope, 'ReportFetcher', {
    ...common,
    entry: entry('reportFetcher'),
    serviceName: 'report-fetcher',
    description: 'Archives a day of Skywatch reports and status snapshots to S3',
    timeout: Duration.minutes(15),
    memorySize: REPORT_FETCHER_MEMORY_MB,
    asyncRetryAttempts: 2,
    environment: env({
      REPORT_BUCKET: bucket.bucketName,
      GSM_KEYS: gsmKeys,
      ARCHIVE_QUEUE_URL: archiveQueue.queueUrl,
      ARCHIVE_GZIP_LEVEL: String(s.archiveGzipLevel),
      SERVICE_CONCURRENCY: String(s.archiveServiceConcurrency),
    }),
  });
  // The day jobs (what a day's archive must hold, how far each walk got) the manifests are
  // written from: written by the fetcher and the archive worker, never by anything else.
  const dayRecords = `${BUCKET_PREFIXES.state}report-fetcher/`;
  secrets.token.grantRead(reportFetcher.function);
  for (const prefix of [BUCKET_PREFIXES.reports, BUCKET_PREFIXES.manifests, dayRecords]) {
    grantPrefixRead(reportFetcher, bucket, prefix);
    grantPrefixWrite(reportFetcher, bucket, prefix);
  }
  archiveQueue.grantSendMessages(reportFetcher.function);

  const archiveWorker = new SkywatchFunction(scope, 'ArchiveWorker', {
    ...common,
    entry: entry('archiveWorker'),
    serviceName: 'report-archive-worker',
    description: 'Goes on with a day of the archive that the report fetcher handed over',
    timeout: ARCHIVE_WORKER_TIMEOUT,
    memorySize: REPORT_FETCHER_MEMORY_MB,
    failuresKeptBy:
      'the archive queue invokes it synchronously and moves a message that failed every delivery to ArchiveDeadLetterQueue.',
    environment: env({
      REPORT_BUCKET: bucket.bucketName,
      ARCHIVE_QUEUE_URL: archiveQueue.queueUrl,
      ARCHIVE_GZIP_LEVEL: String(s.archiveGzipLevel),
      SERVICE_CONCURRENCY: String(s.archiveServiceConcurrency),
    }),
  });
  secrets.token.grantRead(archiveWorker.function);
  // It hands a job it cannot finish over to a fresh invocation of itself.
  archiveQueue.grantSendMessages(archiveWorker.function);
  // Read too: the store compares a report's hash (HEAD) before rewriting it, and a missing
  // key answers 404 rather than 403 only with the List permission grantRead carries. The
  // worker saves the day's job and writes its manifest when the job ends.
  for (const prefix of [BUCKET_PREFIXES.reports, BUCKET_PREFIXES.manifests, dayRecords]) {
    grantPrefixRead(archiveWorker, bucket, prefix);
    grantPrefixWrite(archiveWorker, bucket, prefix);
  }
  // The event source grants receive/delete/change-visibility on the queue.
  const archiveSource = new lambdaEvents.SqsEventSource(archiveQueue, {
    batchSize: 1,
    reportBatchItemFailures: true,
    maxConcurrency: s.archiveWorkerMaxConcurrency,
  });
  archiveWorker.function.addEventSource(archiveSource);
  acknowledgeQueueRedrive(archiveWorker, 'the archive queue', 'ArchiveDeadLetterQueue');

  // Cursors, paused walks, the health outbox and records, claims and de-duplication records:
  // read, conditional writes, and deleting an outbox entry once sent, a walk once finished or a
  // claim when the attempt it guarded failed.
  const grantStateRecords = (fn: SkywatchFunction) => {
    grantPrefixRead(fn, bucket, BUCKET_PREFIXES.state);
    grantPrefixWrite(fn, bucket, BUCKET_PREFIXES.state);
    grantPrefixDelete(fn, bucket, BUCKET_PREFIXES.state);
  };

  const alerterEnv = {
    REPORT_BUCKET: bucket.bucketName,
    ALERT_TOPIC_ARN: alertTopic.topicArn,
    GSM_KEYS: gsmKeys,
  };
  const blockedUrlAlerter = new SkywatchFunction(scope, 'BlockedUrlAlerter', {
    ...common,
    entry: entry('blockedUrlAlerter'),
    serviceName: 'blocked-url-alerter',
    description: 'Alerts on sites whose blocked-URL count spikes above threshold and baseline',
    timeout: Duration.minutes(5),
    memorySize: 512,
    asyncRetryAttempts: 1,
    maxEventAge: Duration.minutes(s.blockedUrlAlertMinutes),
    environment: env({
      ...alerterEnv,
      BLOCKED_URL_MIN_COUNT: String(s.blockedUrlMinCount),
      BLOCKED_URL_BASELINE_MULTIPLIER: String(s.blockedUrlBaselineMultiplier),
    }),
  });

  const infectionAlerter = new SkywatchFunction(scope, 'InfectionAlerter', {
    ...common,
    entry: entry('infectionAlerter'),
    serviceName: 'infection-alerter',
    description:
      'Health alerts (infected, protection off, offline, ...): a trigger and a resolve per problem',
    timeout: Duration.minutes(2),
    memorySize: 512,
    // The cursor catches up on the next run; a retry would only overlap it.
    asyncRetryAttempts: 0,
    maxEventAge: Duration.minutes(s.infectionAlertMinutes),
    environment: env({
      ...alerterEnv,
      NOTIFIER_QUEUE_URL: deps.notifierQueue.queueUrl,
      ALERT_OUTBREAK_THRESHOLD: String(s.alertOutbreakThreshold),
      ...linkEnv,
      ALERT_ROUTING_PARAMETER: deps.alertRouting.parameter.parameterName,
      ALERT_MUTES_PARAMETER: deps.alertMutes.parameter.parameterName,
    }),
  });
  deps.alertRouting.grantGet(infectionAlerter.function);
  deps.alertMutes.grantGet(infectionAlerter.function);
  // Alert events go to the notifier one message per destination (lib/aws/delivery-queue.ts).
  deps.notifierQueue.grantSendMessages(infectionAlerter.function);
  // The alert history: each writes new objects of its own, nothing read (lib/aws/alert-history.ts).
  const alertEvents = `${BUCKET_PREFIXES.reports}alert-events/`;
  grantPrefixWrite(infectionAlerter, bucket, alertEvents);
  for (const alerter of [blockedUrlAlerter, infectionAlerter]) {
    secrets.token.grantRead(alerter.function);
    grantStateRecords(alerter);
    grantTopicPublish(alerter, alertTopic);
  }

  const cartCustomerWebhook = new SkywatchFunction(scope, 'CartCustomerWebhook', {
    ...common,
    entry: entry('cartCustomerWebhook'),
    serviceName: 'cart-customer-webhook',
    description: 'Signed webhook that adds the customers of a shop cart (operation 4.10)',
    // Below the 30 s API Gateway integration limit, so the function answers, not the gateway.
    timeout: Duration.seconds(25),
    memorySize: 512,
    failuresKeptBy:
      'API Gateway invokes it synchronously; the shop receives the error status and retries the signed request.',
    environment: env({
      CREDENTIALS_SECRET_ARN: secrets.credentials.secretArn,
      REPORT_BUCKET: bucket.bucketName,
      WEBHOOK_TOLERANCE_SECONDS: String(s.webhookToleranceSeconds),
    }),
  });
  secrets.token.grantRead(cartCustomerWebhook.function);
  secrets.credentials.grantRead(cartCustomerWebhook.function);
  grantStateRecords(cartCustomerWebhook);

  const reportBuilder = new SkywatchFunction(scope, 'ReportBuilder', {
    ...common,
    entry: entry('reportBuilder'),
    serviceName: 'report-builder',
    description: 'Writes the daily HTML report per GSM and the monthly seat CSV from the archive',
    timeout: Duration.minutes(15),
    memorySize: 1024,
    asyncRetryAttempts: 2,
    environment: env({
      REPORT_BUCKET: bucket.bucketName,
      GSM_KEYS: gsmKeys,
      ...linkEnv,
    }),
  });
  // The digest's and the built pages' links are signed with the report site's private key.
  for (const signer of [infectionAlerter, reportBuilder]) links?.secret.grantRead(signer.function);
  // Blocked-URL counts come from the service; the archive and manifests are only read; pages/
  // is read too, so the pre-signed links it signs to its pages work.
  secrets.token.grantRead(reportBuilder.function);
  for (const prefix of [BUCKET_PREFIXES.reports, BUCKET_PREFIXES.manifests, BUCKET_PREFIXES.pages])
    grantPrefixRead(reportBuilder, bucket, prefix);
  grantPrefixWrite(reportBuilder, bucket, BUCKET_PREFIXES.pages);

  const alertNotifier = new SkywatchFunction(scope, 'AlertNotifier', {
    ...common,
    entry: entry('alertNotifier'),
    serviceName: 'alert-notifier',
    description:
      'Delivers health alert events to Slack, Teams, PagerDuty and a signed webhook, in order',
    timeout: NOTIFIER_TIMEOUT,
    memorySize: 256,
    failuresKeptBy:
      'the notifier queue invokes it synchronously; a delivery that failed every retry goes to NotifierDeadLetterQueue.',
    // The service settings too, though it never calls the service: every function has them.
    environment: env({
      REPORT_BUCKET: bucket.bucketName,
      NOTIFIER_SECRET_ARN: secrets.notifier.secretArn,
      NOTIFIER_QUEUE_URL: deps.notifierQueue.queueUrl,
      NOTIFIER_DLQ_URL: deps.notifierDeadLetterQueue.queueUrl,
      NOTIFIER_MAX_RECEIVES: String(NOTIFIER_QUEUE.maxReceiveCount),
    }),
  });
  secrets.notifier.grantRead(alertNotifier.function);
  // Only its own sent-markers: which destination already has which event.
  const sentMarkers = `${BUCKET_PREFIXES.state}notifier/`;
  grantPrefixRead(alertNotifier, bucket, sentMarkers);
  grantPrefixWrite(alertNotifier, bucket, sentMarkers);
  deps.notifierDeadLetterQueue.grantSendMessages(alertNotifier.function);
  grantPrefixWrite(alertNotifier, bucket, alertEvents);
  alertNotifier.function.addEventSource(
    new lambdaEvents.SqsEventSource(deps.notifierQueue, {
      batchSize: 10,
      // A failed delivery is reported alone and comes back after its own back-off.
      reportBatchItemFailures: true,
      // Destinations rate-limit (Slack about one message a second per webhook).
      maxConcurrency: 2,
    }),
  );
  acknowledgeQueueRedrive(alertNotifier, 'the notifier queue', 'NotifierDeadLetterQueue');

  return {
    alertNotifier,
    tokenRefresher,
    reportFetcher,
    archiveWorker,
    blockedUrlAlerter,
    infectionAlerter,
    cartCustomerWebhook,
    reportBuilder,
  };
}

/**
 * Lambda offers no on-failure destination for an SQS event source: the queue's own redrive
 * policy keeps a message that failed every delivery, in an alarmed dead-letter queue.
 */
function acknowledgeQueueRedrive(fn: SkywatchFunction, queue: string, deadLetters: string): void {
  const mapping = fn.function.node.children.find(
    (child) => child instanceof lambda.EventSourceMapping,
  );
  if (!mapping) return;
  Validations.of(mapping).acknowledge({
    id: 'Serverless-LambdaEventSourceMappingDestination',
    reason: `Lambda offers no on-failure destination for an SQS event source; the redrive policy of ${queue} moves a message that failed every delivery to ${deadLetters}, which is alarmed.`,
  });
}
