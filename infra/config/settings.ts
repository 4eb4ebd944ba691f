import type { RoutingDocument } from '../../lib/alerts/routing.js';

export const LOG_LEVELS = ['DEBUG', 'INFO', 'WARN', 'ERROR'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Values CloudWatch Logs accepts as a retention period, in days. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288,
  3653,
] as const;

/**
 * Everything an operator may configure. Only the service URLs and the GSM keys are required;
 * everything else has a default suited to one console with a few thousand endpoints.
 */
export interface SkywatchSettings {
  /** `{base_url}` of the service, https. Operations 4.1–4.10 live under it. */
  readonly baseUrl: string;
  /** `{auth_url}` of the identity service, https; the token endpoint is `{auth_url}/auth/token`. */
  readonly authUrl: string;
  /** GSM keycodes to archive and watch (`ABCD-EFGH-IJKL-MNOP-QRST`), at least one. */
  readonly gsmKeys: readonly string[];
  /** E-mail address subscribed to the alert topic. @default - no subscription */
  readonly alertEmail?: string;
  /** E-mail address subscribed to the ops (alarm) topic. @default - alertEmail */
  readonly opsEmail?: string;
  /** Log level of every function. @default 'INFO' */
  readonly logLevel?: LogLevel;
  /**
   * Token refresher rate in minutes; at most the access-token lifetime, so there is one token
   * call per lifetime (functions wait out the seconds between expiry and rotation). @default 5
   */
  readonly tokenRefreshMinutes?: number;
  /** Access-token lifetime of the service, in seconds. @default 300 */
  readonly accessTokenLifetimeSeconds?: number;
  /** Daily archive time, `HH:MM` UTC. @default '06:00' */
  readonly reportFetchTimeUtc?: string;
  /** Blocked-URL alerter rate in minutes. @default 60 */
  readonly blockedUrlAlertMinutes?: number;
  /** Infection alerter (health alerts) rate in minutes (docs/operations.md, "Schedules"). @default 1 */
  readonly infectionAlertMinutes?: number;
  /**
   * More endpoints of one site than this triggering the same health kind in one run make an
   * outbreak: one alert for the site, theirs recorded, not sent (docs/operations.md,
   * "Outbreaks"). @default 5
   */
  readonly alertOutbreakThreshold?: number;
  /** Blocked-URL count a site's latest day must exceed to alert. @default 200 */
  readonly blockedUrlMinCount?: number;
  /** Multiple of the site's baseline (median of previous days) to exceed. @default 3 */
  readonly blockedUrlBaselineMultiplier?: number;
  /** Webhook signature timestamp tolerance, in seconds. @default 300 */
  readonly webhookToleranceSeconds?: number;
  /** Webhook steady-state request rate per second (API stage throttling). @default 10 */
  readonly webhookRateLimit?: number;
  /** Webhook burst limit (API stage throttling). @default 20 */
  readonly webhookBurstLimit?: number;
  /** Retention of every log group, in days (a CloudWatch Logs value). @default 30 */
  readonly logRetentionDays?: number;
  /** Days after which reports move to S3 Standard-IA (at least 30). @default 30 */
  readonly reportTransitionDays?: number;
  /** Days after which reports and manifests expire. @default 400 */
  readonly reportExpirationDays?: number;
  /** Days noncurrent object versions are kept. @default 30 */
  readonly noncurrentVersionExpirationDays?: number;
  /** Days S3 server access logs are kept. @default 90 */
  readonly accessLogExpirationDays?: number;
  /** Hours without an `ArchiveCompleted` metric before the heartbeat alarm fires. @default 26 */
  readonly archiveHeartbeatHours?: number;
  /**
   * Most archive workers at once (SQS event source maximum concurrency, 2–1000): one a day's
   * job that outgrew the fetcher's invocation, so one a GSM at most on a daily run. @default 5
   */
  readonly archiveWorkerMaxConcurrency?: number;
  /**
   * Most service calls one day's job makes at once (1–64); the adaptive limiter moves below it
   * when the service throttles or slows down; memory grows with it. @default 4
   */
  readonly archiveServiceConcurrency?: number;
  /** Deliveries of an archive hand-over message before it moves to the dead-letter queue. @default 3 */
  readonly archiveMaxReceiveCount?: number;
  /**
   * gzip level of archive objects, 1 (fastest) to 9 (smallest). 2 keeps the daily archive's CPU
   * low for a few per cent more bytes than 4; docs/performance.md has the trade. @default 2
   */
  readonly archiveGzipLevel?: number;
  /** Create an Athena workgroup and Glue database over the archive. @default true */
  readonly athena?: boolean;
  /**
   * Serve the daily pages through CloudFront with signed links (docs/operations.md, "Report
   * links"); false keeps the S3 location in the digest and no distribution. @default true
   */
  readonly reportLinks?: boolean;
  /** Days a signed report link opens its page (1–90). @default 7 */
  readonly reportLinkDays?: number;
  /** Version of the links' signing key; raise it by one to rotate the key. @default 1 */
  readonly reportLinkKeyVersion?: number;
  /**
   * A domain name of the operator's for the report links (`reports.example.com`), with
   * reportLinkCertificateArn; only then does CloudFront hold viewers to TLS 1.2 or later.
   * @default - the distribution's own `*.cloudfront.net` name
   */
  readonly reportLinkDomain?: string;
  /** ACM certificate (in us-east-1) for reportLinkDomain. @default - none */
  readonly reportLinkCertificateArn?: string;
  /**
   * Record every service call and AWS SDK call as an X-Ray subsegment (Powertools Tracer).
   * Active tracing is on either way; this adds the calls inside each invocation, and the X-Ray
   * SDK that records them adds to every cold start (docs/performance.md). @default false
   */
  readonly traceCalls?: boolean;
  /**
   * The alert routing document the stack's SSM parameter starts with (docs/operations.md,
   * "Routing"), as an object or its JSON text; validated at synth, every problem listed with
   * its path. The stack writes it again only when this setting changes: edits made with
   * `aws ssm put-parameter` stay until then. @default - every alert to the notifier secret's
   * slack, teams, pagerduty and webhook
   */
  readonly alertRouting?: object | string;
}

/** Settings after validation, with every default filled in. */
export type ResolvedSettings = Required<
  Omit<
    SkywatchSettings,
    'alertEmail' | 'opsEmail' | 'alertRouting' | 'reportLinkDomain' | 'reportLinkCertificateArn'
  >
> & {
  readonly alertEmail: string | undefined;
  readonly opsEmail: string | undefined;
  readonly reportLinkDomain: string | undefined;
  readonly reportLinkCertificateArn: string | undefined;
  readonly alertRouting: RoutingDocument;
};

export const DEFAULT_SETTINGS = {
  logLevel: 'INFO',
  tokenRefreshMinutes: 5,
  accessTokenLifetimeSeconds: 300,
  reportFetchTimeUtc: '06:00',
  blockedUrlAlertMinutes: 60,
  infectionAlertMinutes: 1,
  alertOutbreakThreshold: 5,
  blockedUrlMinCount: 200,
  blockedUrlBaselineMultiplier: 3,
  webhookToleranceSeconds: 300,
  webhookRateLimit: 10,
  webhookBurstLimit: 20,
  logRetentionDays: 30,
  reportTransitionDays: 30,
  reportExpirationDays: 400,
  noncurrentVersionExpirationDays: 30,
  accessLogExpirationDays: 90,
  archiveHeartbeatHours: 26,
  archiveWorkerMaxConcurrency: 5,
  archiveMaxReceiveCount: 3,
  archiveServiceConcurrency: 4,
  // The store's DEFAULT_GZIP_LEVEL (lib/aws), repeated: infra/ does not import lib/.
  archiveGzipLevel: 2,
  athena: true,
  traceCalls: false,
  reportLinks: true,
  reportLinkDays: 7,
  reportLinkKeyVersion: 1,
} as const satisfies Omit<SkywatchSettings, 'baseUrl' | 'authUrl' | 'gsmKeys'>;

export const SETTING_NAMES: readonly (keyof SkywatchSettings)[] = [
  'baseUrl',
  'authUrl',
  'gsmKeys',
  'alertEmail',
  'opsEmail',
  'alertRouting',
  'reportLinkDomain',
  'reportLinkCertificateArn',
  ...(Object.keys(DEFAULT_SETTINGS) as (keyof typeof DEFAULT_SETTINGS)[]),
];

export { SkywatchConfigError } from './errors.js';
