import * as z from '../zod.js';
import { DateTime, Int, Keycode, Uuid } from './common.js';
import type { Tolerant } from './tolerant.js';

/** GSM usage report (2.4). */
export const UsageReportGSM = z.lazy(() =>
  z.looseObject({
    ReportInfo: z.looseObject({
      ReportType: z.string(),
      EffectiveDate: DateTime,
      GSMKey: Keycode,
    }),
    GSM: z.looseObject({
      GSMConsoleName: z.string(),
      LicenseType: z.string(),
      ExpiryDate: DateTime,
      TotalSitesWithoutTrial: Int,
      TotalTrialSites: Int,
      TotalEndpointsWithoutTrial: Int,
      TotalTrialEndpoints: Int,
    }),
  }),
);
/**
 * As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts) but
 * the day it is about, without which the report is refused (lib/client/reports.ts).
 */
export type UsageReportGSM = Tolerant<z.infer<typeof UsageReportGSM>> & {
  ReportInfo: { EffectiveDate: string };
};

/** ReportInfo of 2.5 and 2.6. */
const sitesReportInfo = () =>
  z.looseObject({
    Count: Int,
    SiteKeyFilter: z.nullable(z.string()),
    ReportType: z.string(),
    EffectiveDate: DateTime,
    GSMKey: Keycode,
  });
export const SitesReportInfo = z.lazy(sitesReportInfo);

export const UsageReportSiteEntry = z.lazy(() =>
  z.looseObject({
    SiteId: Uuid,
    SiteKey: Keycode,
    SiteName: z.string(),
    LicenseType: z.string(),
    ExpiryDate: DateTime,
    SiteState: z.string(),
    SiteStateChangedDate: DateTime,
    TotalEndpoints: Int,
  }),
);

/** GSM site-level usage report (2.5); also the known part of 4.7's answer. */
export const UsageReportSites = z.lazy(() =>
  z.looseObject({
    ReportInfo: SitesReportInfo,
    Sites: z.array(UsageReportSiteEntry),
  }),
);
/** As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts). */
export type UsageReportSites = Tolerant<z.infer<typeof UsageReportSites>>;

/**
 * 4.7 (shape not in the spec): typed as 2.5 narrowed to one site. Every part is loose, and
 * `Sites` optional, so an answer of another shape still passes with its fields kept.
 */
export const UsageReportSite = z.lazy(() =>
  z.looseObject({
    // Partial keeps SitesReportInfo's catch-all: the info stays loose.
    ReportInfo: z.partial(sitesReportInfo()),
    Sites: z.optional(z.array(UsageReportSiteEntry)),
  }),
);
/** As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts). */
export type UsageReportSite = Tolerant<z.infer<typeof UsageReportSite>>;

export const UsageReportSitesDNSPSiteEntry = z.lazy(() =>
  z.looseObject({
    SiteId: Uuid,
    SiteKey: Keycode,
    SiteName: z.string(),
    SiteLicenseType: z.string(),
    SiteExpiryDate: DateTime,
    SiteState: z.string(),
    SiteStateChangedDate: DateTime,
    DNSPEnabled: z.boolean(),
    DNSPLicenseType: z.string(),
    DNSPExpiryDate: DateTime,
    TotalDNSPDevicesProxy: Int,
    TotalDNSPDevicesActual: Int,
    TotalDNSPAgentlessRequests: Int,
    TotalDNSPAgents: Int,
  }),
);

/** DNSP site usage report (2.6). */
export const UsageReportSiteDNSP = z.lazy(() =>
  z.looseObject({
    ReportInfo: SitesReportInfo,
    Sites: z.array(UsageReportSitesDNSPSiteEntry),
  }),
);
/** As the tolerant reader delivers it: any field may be absent (lib/schemas/tolerant.ts). */
export type UsageReportSiteDNSP = Tolerant<z.infer<typeof UsageReportSiteDNSP>>;
