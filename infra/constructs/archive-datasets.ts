import { AlertEventRow } from '../../lib/alerts/history.js';
import {
  DNSP_REPORT_TYPE,
  GSM_REPORT_TYPES,
  type ReportDataset,
} from '../../lib/aws/report-keys.js';
import {
  AgentStatus,
  DNSPAgentStatus,
  SitesReportInfo,
  UsageReportGSM,
  UsageReportSiteDNSP,
  UsageReportSiteEntry,
} from '../../lib/schemas/index.js';
import * as z from '../../lib/zod.js';

/**
 * One archived dataset: objects under `reports/<prefix>/gsm=<key>/date=<day>/[type=<t>/]…`
 * (lib/aws/report-keys.ts), gzip NDJSON, one record of `record` a line.
 */
export interface ArchiveDataset {
  /** Glue table name. */
  readonly table: string;
  /** The dataset's key prefix below `reports/`. */
  readonly prefix: ReportDataset;
  readonly description: string;
  /** The schema each line was validated with before it was written. */
  readonly record: z.core.$ZodType;
  /** Values of the `type=` partition, when the dataset has one. */
  readonly reportTypes?: readonly string[];
}

export const ARCHIVE_DATASETS: readonly ArchiveDataset[] = [
  {
    table: 'agent_status',
    prefix: 'agent-status',
    description: 'Agent status snapshots (4.3), one endpoint a line with its groups as structs',
    record: AgentStatus,
  },
  {
    table: 'dnsp_status',
    prefix: 'dnsp-status',
    description: 'DNS protection agent status snapshots (4.4), one agent a line',
    record: DNSPAgentStatus,
  },
  {
    table: 'gsm_usage',
    prefix: 'gsm-usage',
    description: 'GSM usage reports (4.5), one line per report type and day',
    record: UsageReportGSM,
    reportTypes: GSM_REPORT_TYPES,
  },
  {
    table: 'site_usage',
    prefix: 'site-usage',
    description: 'Site usage reports (4.6), one site a line with the report info',
    // The fetcher writes one { ReportInfo, Site } line a site so a row is a site.
    record: z.object({ ReportInfo: SitesReportInfo, Site: UsageReportSiteEntry }),
    reportTypes: GSM_REPORT_TYPES,
  },
  {
    table: 'dnsp_usage',
    prefix: 'dnsp-usage',
    // Objects sit one level deeper, in site=<key>/; the table has no site partition (site keys
    // are not known at deploy time) and Athena reads a partition's subfolders, so every site's
    // report is a row. Sites[].SiteKey names the site.
    description: 'DNS protection site usage reports (4.8), one site report a line',
    record: UsageReportSiteDNSP,
    reportTypes: [DNSP_REPORT_TYPE],
  },
  {
    table: 'alert_events',
    prefix: 'alert-events',
    description:
      'Alert history: one line per alert event (trigger, resolve, grouped, muted, each delivery)',
    record: AlertEventRow,
  },
];
