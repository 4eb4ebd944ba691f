import * as path from 'node:path';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import type { ResolvedSettings } from './config/settings.js';
import { PageLinkKey } from './constructs/page-link-key.js';
import type { ReportBucket } from './constructs/report-bucket.js';
import { ReportSite } from './constructs/report-site.js';
import { PAGE_LINK_KEY_ENTRY, type PageLinkDeps } from './functions.js';

export interface ReportLinks {
  readonly key: PageLinkKey;
  readonly site: ReportSite;
  /** What the functions that sign links are given (infra/functions.ts). */
  readonly deps: PageLinkDeps;
}

/**
 * The report site (setting `reportLinks`): the signing key made at deploy time and the
 * distribution that trusts it, in front of the archive's daily pages.
 */
export function createReportLinks(
  scope: Construct,
  options: {
    settings: ResolvedSettings;
    archive: ReportBucket;
    alarmTopic: sns.ITopic;
    projectRoot: string;
  },
): ReportLinks {
  const { settings: s } = options;
  const key = new PageLinkKey(scope, 'PageLinkKey', {
    entry: path.join(options.projectRoot, PAGE_LINK_KEY_ENTRY),
    keyVersion: s.reportLinkKeyVersion,
    alarmTopic: options.alarmTopic,
    logRetention: s.logRetentionDays as logs.RetentionDays,
    environment: { LOG_LEVEL: s.logLevel, POWERTOOLS_TRACE_ENABLED: String(s.traceCalls) },
  });
  const site = new ReportSite(scope, 'ReportSite', {
    archive: options.archive,
    keyGroup: key.keyGroup,
    logExpirationDays: s.accessLogExpirationDays,
    domainName: s.reportLinkDomain,
    certificateArn: s.reportLinkCertificateArn,
  });
  return {
    key,
    site,
    deps: {
      origin: site.origin,
      keyPairId: key.publicKey.publicKeyId,
      secret: key.secret,
      days: s.reportLinkDays,
    },
  };
}
