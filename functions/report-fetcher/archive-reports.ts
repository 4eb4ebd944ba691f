import {
  type ArchivedObject,
  GSM_REPORT_TYPES,
  gsmUsageKey,
  type ReportStore,
  siteUsageKey,
} from '../../lib/aws/index.js';
import {
  ReportDay,
  SchemaError,
  SiteIdentity,
  type SkywatchClient,
  serviceValue,
} from '../../lib/index.js';

/** A site of the sites report, with what a walk of it needs. */
export interface ReportSite {
  key: string;
  id: string;
  name: string;
  /** TotalEndpoints as the report gave it; 0 when absent or unreadable. */
  endpoints: number;
}

function count(site: { TotalEndpoints?: unknown }): number {
  const n = site.TotalEndpoints;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * 4.5 for every report type and 4.6 for every report type, for one GSM and day. Without a day
 * the service's newest report decides it; the answer's EffectiveDate names the day archived.
 */
export async function archiveGsmReports(
  client: SkywatchClient,
  store: ReportStore,
  gsm: string,
  day: string | undefined,
): Promise<{
  day: string;
  objects: ArchivedObject[];
  sites: ReportSite[];
  /** Sites of the sites report that lack a key or an id: they cannot be walked on their own. */
  unidentified: number;
}> {
  const objects: ArchivedObject[] = [];
  let effective = day;
  let sites: ReportSite[] = [];
  let unidentified = 0;
  for (const reportType of GSM_REPORT_TYPES) {
    const report = await client.gsmUsageReport(gsm, {
      reportType,
      ...(effective ? { effectiveDate: effective } : {}),
    });
    // Pin the day the service chose so every later call archives the same one.
    if (!effective) {
      const dated = client.needs(report, ReportDay, 'UsageReportGSM');
      if (!dated)
        throw new SchemaError(
          'UsageReportGSM names no usable EffectiveDate: no day to archive',
          'ReportInfo.EffectiveDate',
        );
      effective = dated.ReportInfo.EffectiveDate.slice(0, 10);
    }
    const meta = { operation: '4.5', gsm, reportType };
    // The service's own value: a field the reader left out is still archived.
    const key = gsmUsageKey(gsm, effective, reportType);
    objects.push(await store.writeRecords(key, [serviceValue(report)], meta));

    const bySite = await client.sitesUsageReport(gsm, { reportType, effectiveDate: effective });
    const siteKey = siteUsageKey(gsm, effective, reportType);
    // One line a site with its ReportInfo, so Athena reads a row per site.
    const sent = serviceValue(bySite) as { ReportInfo?: unknown; Sites?: unknown };
    const rows = (Array.isArray(sent.Sites) ? sent.Sites : []).map((Site: unknown) => ({
      ReportInfo: sent.ReportInfo,
      Site,
    }));
    objects.push(await store.writeRecords(siteKey, rows, { ...meta, operation: '4.6' }));
    // Every site is archived above; only those with key and id can be worked on (the client
    // counts the others, rule `needed`).
    // A site's size for planning walks: the largest count any report type gave it.
    const before = new Map(sites.map((s) => [s.key, s.endpoints]));
    sites = (bySite.Sites ?? []).flatMap((s) => {
      const site = client.needs(s, SiteIdentity, 'UsageReportSites.Sites');
      if (!site) return [];
      const endpoints = Math.max(count(s), before.get(site.SiteKey) ?? 0);
      return [{ key: site.SiteKey, id: site.SiteId, name: s.SiteName ?? '', endpoints }];
    });
    unidentified = (bySite.Sites ?? []).length - sites.length;
  }
  return { day: effective ?? '', objects, sites, unidentified };
}
