import {
  DEFAULT_SETTINGS,
  LOG_LEVELS,
  LOG_RETENTION_DAYS,
  type ResolvedSettings,
  SETTING_NAMES,
} from './settings.js';
import { Checker } from './validators.js';

/**
 * Validates settings and fills in defaults. Throws {@link SkywatchConfigError} listing every
 * problem, so a bad value fails `cdk synth` with a message that names the setting.
 */
export function resolveSettings(input: object): ResolvedSettings {
  const raw = input as Record<string, unknown>;
  const c = new Checker();
  for (const name of Object.keys(raw)) {
    if (!(SETTING_NAMES as readonly string[]).includes(name)) {
      c.fail(name, `is not a Skywatch setting (known: ${SETTING_NAMES.join(', ')})`);
    }
  }
  const d = DEFAULT_SETTINGS;
  const settings: ResolvedSettings = {
    baseUrl: c.httpsUrl('baseUrl', raw.baseUrl),
    authUrl: c.httpsUrl('authUrl', raw.authUrl),
    gsmKeys: c.keycodes('gsmKeys', raw.gsmKeys),
    alertEmail: c.optionalEmail('alertEmail', raw.alertEmail),
    opsEmail: c.optionalEmail('opsEmail', raw.opsEmail),
    logLevel: c.oneOf('logLevel', raw.logLevel ?? d.logLevel, LOG_LEVELS),
    tokenRefreshMinutes: c.int(
      'tokenRefreshMinutes',
      raw.tokenRefreshMinutes ?? d.tokenRefreshMinutes,
      1,
      60,
    ),
    accessTokenLifetimeSeconds: c.int(
      'accessTokenLifetimeSeconds',
      raw.accessTokenLifetimeSeconds ?? d.accessTokenLifetimeSeconds,
      60,
      86_400,
    ),
    reportFetchTimeUtc: c.timeOfDay(
      'reportFetchTimeUtc',
      raw.reportFetchTimeUtc ?? d.reportFetchTimeUtc,
    ),
    blockedUrlAlertMinutes: c.int(
      'blockedUrlAlertMinutes',
      raw.blockedUrlAlertMinutes ?? d.blockedUrlAlertMinutes,
      1,
      1440,
    ),
    infectionAlertMinutes: c.int(
      'infectionAlertMinutes',
      raw.infectionAlertMinutes ?? d.infectionAlertMinutes,
      1,
      1440,
    ),
    blockedUrlMinCount: c.int(
      'blockedUrlMinCount',
      raw.blockedUrlMinCount ?? d.blockedUrlMinCount,
      0,
      1_000_000_000,
    ),
    blockedUrlBaselineMultiplier: c.number(
      'blockedUrlBaselineMultiplier',
      raw.blockedUrlBaselineMultiplier ?? d.blockedUrlBaselineMultiplier,
      1,
      1000,
    ),
    infectionSummaryThreshold: c.int(
      'infectionSummaryThreshold',
      raw.infectionSummaryThreshold ?? d.infectionSummaryThreshold,
      1,
      100_000,
    ),
    alertOnClean: c.bool('alertOnClean', raw.alertOnClean ?? d.alertOnClean),
    webhookToleranceSeconds: c.int(
      'webhookToleranceSeconds',
      raw.webhookToleranceSeconds ?? d.webhookToleranceSeconds,
      1,
      3600,
    ),
    webhookRateLimit: c.int(
      'webhookRateLimit',
      raw.webhookRateLimit ?? d.webhookRateLimit,
      1,
      10_000,
    ),
    webhookBurstLimit: c.int(
      'webhookBurstLimit',
      raw.webhookBurstLimit ?? d.webhookBurstLimit,
      1,
      5000,
    ),
    logRetentionDays: c.oneOf(
      'logRetentionDays',
      raw.logRetentionDays ?? d.logRetentionDays,
      LOG_RETENTION_DAYS,
    ),
    reportTransitionDays: c.int(
      'reportTransitionDays',
      raw.reportTransitionDays ?? d.reportTransitionDays,
      30,
      36_500,
    ),
    reportExpirationDays: c.int(
      'reportExpirationDays',
      raw.reportExpirationDays ?? d.reportExpirationDays,
      1,
      36_500,
    ),
    noncurrentVersionExpirationDays: c.int(
      'noncurrentVersionExpirationDays',
      raw.noncurrentVersionExpirationDays ?? d.noncurrentVersionExpirationDays,
      1,
      36_500,
    ),
    accessLogExpirationDays: c.int(
      'accessLogExpirationDays',
      raw.accessLogExpirationDays ?? d.accessLogExpirationDays,
      1,
      36_500,
    ),
    archiveHeartbeatHours: c.int(
      'archiveHeartbeatHours',
      raw.archiveHeartbeatHours ?? d.archiveHeartbeatHours,
      25,
      168,
    ),
    siteWorkerMaxConcurrency: c.int(
      'siteWorkerMaxConcurrency',
      raw.siteWorkerMaxConcurrency ?? d.siteWorkerMaxConcurrency,
      2,
      1000,
    ),
    fanoutMaxReceiveCount: c.int(
      'fanoutMaxReceiveCount',
      raw.fanoutMaxReceiveCount ?? d.fanoutMaxReceiveCount,
      1,
      1000,
    ),
    archiveGzipLevel: c.int('archiveGzipLevel', raw.archiveGzipLevel ?? d.archiveGzipLevel, 1, 9),
    athena: c.bool('athena', raw.athena ?? d.athena),
  };
  checkRelations(c, settings);
  c.throwIfFailed();
  return settings;
}

/** Rules that tie two settings together; skipped for a value already found invalid. */
function checkRelations(c: Checker, s: ResolvedSettings): void {
  const ok = (...names: string[]) => names.every((name) => !c.failed(name));
  if (ok('tokenRefreshMinutes', 'accessTokenLifetimeSeconds')) {
    if (s.tokenRefreshMinutes * 60 > s.accessTokenLifetimeSeconds) {
      c.fail(
        'tokenRefreshMinutes',
        `must refresh at least once per access-token lifetime: ${s.tokenRefreshMinutes} min exceeds accessTokenLifetimeSeconds (${s.accessTokenLifetimeSeconds} s)`,
      );
    }
  }
  if (ok('reportTransitionDays', 'reportExpirationDays')) {
    if (s.reportExpirationDays <= s.reportTransitionDays) {
      c.fail(
        'reportExpirationDays',
        `must be greater than reportTransitionDays (${s.reportTransitionDays}); got ${s.reportExpirationDays}`,
      );
    }
  }
  if (ok('webhookRateLimit', 'webhookBurstLimit') && s.webhookBurstLimit < s.webhookRateLimit) {
    c.fail(
      'webhookBurstLimit',
      `must be at least webhookRateLimit (${s.webhookRateLimit}); got ${s.webhookBurstLimit}`,
    );
  }
}
