import type { Dataset, Gsm, Site } from './dataset.js';
import { between, hash } from './random.js';
import { DAY_MS, isoSeconds } from './time-format.js';

export const GSM_REPORT_TYPES = [
  'ActiveEndpoints',
  'ActiveEndpointsWithoutHidden',
  'EndpointsSeenInLast30Days',
] as const;
export const DNSP_REPORT_TYPES = ['DevicesSeen', 'DevicesSeenInLast30Days'] as const;

/** Share of a site's endpoints each report type counts (seen-in-30-days counts the most). */
const TYPE_SHARE: Record<string, number> = {
  ActiveEndpoints: 0.96,
  ActiveEndpointsWithoutHidden: 0.94,
  EndpointsSeenInLast30Days: 1,
  DevicesSeen: 0.8,
  DevicesSeenInLast30Days: 1,
};

/** Endpoints a report counts for a site on a day: its size, shaped by type and a daily wobble. */
function siteTotal(seed: number, site: Site, day: number, type: string): number {
  const wobble = 0.9 + (hash(seed, 0x7e9, site.gsmIndex, site.localIndex, day) % 1000) / 10_000;
  return Math.round(site.count * (TYPE_SHARE[type] ?? 1) * wobble);
}

function reportInfo(gsm: Gsm, type: string, day: number) {
  return { ReportType: type, EffectiveDate: isoSeconds(day * DAY_MS), GSMKey: gsm.key };
}

/** 4.5: UsageReportGSM. */
export function gsmReport(data: Dataset, gsm: Gsm, type: string, day: number) {
  const seed = data.shape.seed;
  let sites = 0;
  let trialSites = 0;
  let endpoints = 0;
  let trialEndpoints = 0;
  for (const site of gsm.sites) {
    const total = siteTotal(seed, site, day, type);
    if (site.licenseType === 'Trial') {
      trialSites++;
      trialEndpoints += total;
    } else {
      sites++;
      endpoints += total;
    }
  }
  return {
    ReportInfo: reportInfo(gsm, type, day),
    GSM: {
      GSMConsoleName: gsm.name,
      LicenseType: gsm.licenseType,
      ExpiryDate: isoSeconds(gsm.expiry),
      TotalSitesWithoutTrial: sites,
      TotalTrialSites: trialSites,
      TotalEndpointsWithoutTrial: endpoints,
      TotalTrialEndpoints: trialEndpoints,
    },
  };
}

/** 4.6 (all sites) and 4.7 (one site, `only` set): UsageReportSites. */
export function sitesReport(data: Dataset, gsm: Gsm, type: string, day: number, only?: Site) {
  const sites = only ? [only] : gsm.sites;
  return {
    ReportInfo: {
      Count: sites.length,
      SiteKeyFilter: only ? only.key : null,
      ...reportInfo(gsm, type, day),
    },
    Sites: sites.map((site) => ({
      SiteId: site.id,
      SiteKey: site.key,
      SiteName: site.name,
      LicenseType: site.licenseType,
      ExpiryDate: isoSeconds(site.expiry),
      SiteState: 'active',
      SiteStateChangedDate: isoSeconds(site.stateChanged),
      TotalEndpoints: siteTotal(data.shape.seed, site, day, type),
    })),
  };
}

/** 4.8: UsageReportSite_DNSP for one site. */
export function dnspReport(data: Dataset, gsm: Gsm, site: Site, type: string, day: number) {
  const seed = data.shape.seed;
  const agents = site.dnspEnabled ? Math.round(siteTotal(seed, site, day, type) * 0.7) : 0;
  const h = hash(seed, 0xd9, site.gsmIndex, site.localIndex, day);
  return {
    ReportInfo: {
      Count: 1,
      SiteKeyFilter: site.key,
      ...reportInfo(gsm, type, day),
    },
    Sites: [
      {
        SiteId: site.id,
        SiteKey: site.key,
        SiteName: site.name,
        SiteLicenseType: site.licenseType.toLowerCase(),
        SiteExpiryDate: isoSeconds(site.expiry),
        SiteState: 'active',
        SiteStateChangedDate: isoSeconds(site.stateChanged),
        DNSPEnabled: site.dnspEnabled,
        DNSPLicenseType: site.dnspEnabled ? site.licenseType : 'None',
        DNSPExpiryDate: isoSeconds(site.expiry),
        TotalDNSPDevicesProxy: site.dnspEnabled ? between(h, 0, 20) : 0,
        TotalDNSPDevicesActual: agents + (site.dnspEnabled ? between(h >>> 5, 0, 10) : 0),
        TotalDNSPAgentlessRequests: site.dnspEnabled ? between(h >>> 9, 0, 50_000) : 0,
        TotalDNSPAgents: agents,
      },
    ],
  };
}
