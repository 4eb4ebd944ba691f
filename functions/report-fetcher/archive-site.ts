import {
  type ArchivedObject,
  DNSP_REPORT_TYPE,
  dnspUsageKey,
  type ReportStore,
} from '../../lib/aws/index.js';
import {
  type CallOptions,
  type SkywatchClient,
  serviceValue,
  type UsageReportSiteDNSP,
} from '../../lib/index.js';

/** The work for one site: its DNSP usage report (4.8) for a day. */
export interface SiteTask {
  gsm: string;
  site: string;
  day: string;
}

/** The service half of a site's work. */
export function fetchSite(
  client: SkywatchClient,
  task: SiteTask,
  call: CallOptions = {},
): Promise<UsageReportSiteDNSP> {
  return client.siteDnspUsageReport(task.gsm, task.site, {
    ...call,
    reportType: DNSP_REPORT_TYPE,
    effectiveDate: task.day,
  });
}

/** The storage half of a site's work. */
export function storeSite(
  store: ReportStore,
  task: SiteTask,
  report: UsageReportSiteDNSP,
): Promise<ArchivedObject> {
  // The service's own value: a field the reader left out is still archived.
  return store.writeRecords(dnspUsageKey(task.gsm, task.day, task.site), [serviceValue(report)], {
    operation: '4.8',
    gsm: task.gsm,
    site: task.site,
  });
}

/** A site's whole work (a task of the day's job, in the fetcher or its archive worker). */
export async function archiveSite(
  client: SkywatchClient,
  store: ReportStore,
  task: SiteTask,
  call: CallOptions = {},
): Promise<ArchivedObject> {
  return storeSite(store, task, await fetchSite(client, task, call));
}
