import * as z from 'zod';
import { SkywatchConfigError } from './errors.js';
import { routingSetting } from './routing-setting.js';
import {
  DEFAULT_SETTINGS as d,
  LOG_LEVELS,
  LOG_RETENTION_DAYS,
  type ResolvedSettings,
  SETTING_NAMES,
} from './settings.js';
import {
  bool,
  httpsUrl,
  int,
  keycodes,
  number,
  oneOf,
  optionalCertificateArn,
  optionalDomainName,
  optionalEmail,
  timeOfDay,
} from './validators.js';

/** Every setting with its bounds and default; `SkywatchSettings` documents each one. */
const Fields = z.strictObject({
  baseUrl: httpsUrl(),
  authUrl: httpsUrl(),
  gsmKeys: keycodes(),
  alertEmail: optionalEmail(),
  opsEmail: optionalEmail(),
  logLevel: oneOf(LOG_LEVELS, d.logLevel),
  tokenRefreshMinutes: int(1, 60, d.tokenRefreshMinutes),
  accessTokenLifetimeSeconds: int(60, 86_400, d.accessTokenLifetimeSeconds),
  reportFetchTimeUtc: timeOfDay(d.reportFetchTimeUtc),
  blockedUrlAlertMinutes: int(1, 1440, d.blockedUrlAlertMinutes),
  infectionAlertMinutes: int(1, 1440, d.infectionAlertMinutes),
  alertOutbreakThreshold: int(1, 100_000, d.alertOutbreakThreshold),
  blockedUrlMinCount: int(0, 1_000_000_000, d.blockedUrlMinCount),
  blockedUrlBaselineMultiplier: number(1, 1000, d.blockedUrlBaselineMultiplier),
  webhookToleranceSeconds: int(1, 3600, d.webhookToleranceSeconds),
  webhookRateLimit: int(1, 10_000, d.webhookRateLimit),
  webhookBurstLimit: int(1, 5000, d.webhookBurstLimit),
  logRetentionDays: oneOf(LOG_RETENTION_DAYS, d.logRetentionDays),
  reportTransitionDays: int(30, 36_500, d.reportTransitionDays),
  reportExpirationDays: int(1, 36_500, d.reportExpirationDays),
  noncurrentVersionExpirationDays: int(1, 36_500, d.noncurrentVersionExpirationDays),
  accessLogExpirationDays: int(1, 36_500, d.accessLogExpirationDays),
  archiveHeartbeatHours: int(25, 168, d.archiveHeartbeatHours),
  archiveWorkerMaxConcurrency: int(2, 1000, d.archiveWorkerMaxConcurrency),
  archiveMaxReceiveCount: int(1, 1000, d.archiveMaxReceiveCount),
  archiveServiceConcurrency: int(1, 64, d.archiveServiceConcurrency),
  archiveGzipLevel: int(1, 9, d.archiveGzipLevel),
  athena: bool(d.athena),
  traceCalls: bool(d.traceCalls),
  reportLinks: bool(d.reportLinks),
  reportLinkDays: int(1, 90, d.reportLinkDays),
  reportLinkKeyVersion: int(1, 1_000_000, d.reportLinkKeyVersion),
  reportLinkDomain: optionalDomainName(),
  reportLinkCertificateArn: optionalCertificateArn(),
  alertRouting: routingSetting(),
});

/**
 * Rules that tie two settings together. They run even when another setting is invalid, so one
 * synth lists every problem, and skip a pair whose own values were already refused.
 */
const SettingsSchema = Fields.superRefine(
  (s, ctx) => {
    const refused = new Set(ctx.issues.map((issue) => issue.path?.[0]));
    const ok = (...names: (keyof typeof s)[]) => names.every((name) => !refused.has(name));
    const fail = (name: keyof typeof s, message: string) =>
      ctx.addIssue({ code: 'custom', path: [name], message, input: s[name] });
    if (
      ok('tokenRefreshMinutes', 'accessTokenLifetimeSeconds') &&
      s.tokenRefreshMinutes * 60 > s.accessTokenLifetimeSeconds
    ) {
      fail(
        'tokenRefreshMinutes',
        `must refresh at least once per access-token lifetime: ${s.tokenRefreshMinutes} min exceeds accessTokenLifetimeSeconds (${s.accessTokenLifetimeSeconds} s)`,
      );
    }
    if (
      ok('reportTransitionDays', 'reportExpirationDays') &&
      s.reportExpirationDays <= s.reportTransitionDays
    ) {
      fail(
        'reportExpirationDays',
        `must be greater than reportTransitionDays (${s.reportTransitionDays}); got ${s.reportExpirationDays}`,
      );
    }
    if (
      ok('reportLinkDomain', 'reportLinkCertificateArn') &&
      (s.reportLinkDomain === undefined) !== (s.reportLinkCertificateArn === undefined)
    ) {
      fail(
        s.reportLinkDomain === undefined ? 'reportLinkDomain' : 'reportLinkCertificateArn',
        'must be set together with the other: a domain name for the report links and its certificate',
      );
    }
    if (ok('webhookRateLimit', 'webhookBurstLimit') && s.webhookBurstLimit < s.webhookRateLimit) {
      fail(
        'webhookBurstLimit',
        `must be at least webhookRateLimit (${s.webhookRateLimit}); got ${s.webhookBurstLimit}`,
      );
    }
  },
  { when: () => true },
);

/**
 * Validates settings and fills in defaults. Throws {@link SkywatchConfigError} listing every
 * problem, so a bad value fails `cdk synth` with a message that names the setting.
 */
export function resolveSettings(input: object): ResolvedSettings {
  const parsed = SettingsSchema.safeParse(input);
  if (!parsed.success) throw new SkywatchConfigError(describeIssues(parsed.error.issues));
  return parsed.data;
}

/**
 * One line per problem, `<setting> <what is wrong>`, the setting's path as an operator reads
 * it (`alertRouting.routes[0].name`); a field's first problem only.
 */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  const lines = new Map<string, string>();
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        lines.set(key, `${key} is not a Skywatch setting (known: ${SETTING_NAMES.join(', ')})`);
      }
      continue;
    }
    const [name, ...rest] = issue.path;
    const where = `${String(name)}${rest.map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`)).join('')}`;
    if (!lines.has(where)) lines.set(where, `${where} ${issue.message}`);
  }
  return [...lines.values()];
}
