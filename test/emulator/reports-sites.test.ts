import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  type Emulator,
  expectProblem,
  fixture,
  getOk,
  ISO_UTC_RE,
  type Json,
  start,
  token,
  UUID_RE,
} from './helpers.js';

let em: Emulator;
let tok: string;
let fx: ReturnType<typeof fixture>;

beforeAll(async () => {
  em = await start();
  fx = fixture(em);
});
afterAll(() => em.close());
beforeEach(async () => {
  tok = await token(em, ['SkyStatus.Reporting']);
});

const gsmReport = () => `/api/status/reporting/gsm/${fx.gsm.key}`;
const sitesReport = () => `${gsmReport()}/sites`;
const siteReport = (key = fx.site.key) => `${gsmReport()}/sites/${key}`;
const dnspReport = (key = fx.site.key) => `${gsmReport()}/sites/${key}/dnsp`;

function report(path: string, query: Record<string, string> = {}): Promise<Json> {
  return getOk(em, path, { token: tok, query });
}

function info(body: Json): Json {
  return body.ReportInfo as Json;
}

function expectTypes(obj: Json, row: Record<string, string>, where: string) {
  for (const [field, kind] of Object.entries(row)) {
    const v = obj[field];
    const ok =
      kind === 'string'
        ? typeof v === 'string'
        : kind === 'integer'
          ? Number.isInteger(v)
          : kind === 'boolean'
            ? typeof v === 'boolean'
            : kind === 'uuid'
              ? typeof v === 'string' && UUID_RE.test(v)
              : typeof v === 'string' && ISO_UTC_RE.test(v);
    expect(ok, `${where}.${field} = ${JSON.stringify(v)} is not ${kind}`).toBe(true);
  }
}

const SITE_ROW = {
  SiteId: 'uuid',
  SiteKey: 'string',
  SiteName: 'string',
  LicenseType: 'string',
  ExpiryDate: 'datetime',
  SiteState: 'string',
  SiteStateChangedDate: 'datetime',
  TotalEndpoints: 'integer',
};
const DNSP_ROW = {
  SiteId: 'uuid',
  SiteKey: 'string',
  SiteName: 'string',
  SiteLicenseType: 'string',
  SiteExpiryDate: 'datetime',
  SiteState: 'string',
  SiteStateChangedDate: 'datetime',
  DNSPEnabled: 'boolean',
  DNSPLicenseType: 'string',
  DNSPExpiryDate: 'datetime',
  TotalDNSPDevicesProxy: 'integer',
  TotalDNSPDevicesActual: 'integer',
  TotalDNSPAgentlessRequests: 'integer',
  TotalDNSPAgents: 'integer',
};
const REPORT_INFO_ROW = { ReportType: 'string', EffectiveDate: 'datetime', GSMKey: 'string' };

describe('Site-level usage report (4.6)', () => {
  it('lists every site of the GSM with Count equal to Sites.length and every 2.5 field', async () => {
    const body = await report(sitesReport());
    const sites = body.Sites as Json[];
    expectTypes(info(body), { ...REPORT_INFO_ROW, Count: 'integer' }, 'ReportInfo');
    expect(info(body).SiteKeyFilter).toBeNull();
    expect(info(body).ReportType).toBe('EndpointsSeenInLast30Days');
    expect(info(body).Count).toBe(sites.length);
    expect(sites.map((s) => s.SiteKey).sort()).toEqual(fx.gsm.sites.map((s) => s.key).sort());
    for (const [i, s] of sites.entries()) {
      expectTypes(s, SITE_ROW, `Sites[${i}]`);
      const known = fx.gsm.sites.find((k) => k.key === s.SiteKey);
      expect(s.SiteId).toBe(known?.id);
      expect(s.SiteName).toBe(known?.name);
    }
  });

  it('reports each site with the license type info() has', async () => {
    const sites = (await report(sitesReport())).Sites as Json[];
    for (const s of sites) {
      const known = fx.gsm.sites.find((k) => k.key === s.SiteKey);
      expect(String(s.LicenseType).toLowerCase(), String(s.SiteKey)).toBe(
        known?.licenseType.toLowerCase(),
      );
    }
  });

  it('never reports more endpoints for a site than the site has', async () => {
    for (const reportType of [
      'ActiveEndpoints',
      'ActiveEndpointsWithoutHidden',
      'EndpointsSeenInLast30Days',
    ]) {
      const sites = (await report(sitesReport(), { reportType })).Sites as Json[];
      for (const s of sites) {
        const known = fx.gsm.sites.find((k) => k.key === s.SiteKey);
        expect(Number(s.TotalEndpoints), `${reportType} ${String(s.SiteKey)}`).toBeLessThanOrEqual(
          known?.endpointCount ?? -1,
        );
      }
    }
  });

  it('adds up to the GSM report for the same date and type', async () => {
    for (const reportType of ['ActiveEndpoints', 'EndpointsSeenInLast30Days']) {
      const sites = (await report(sitesReport(), { reportType })).Sites as Json[];
      const gsm = (await report(gsmReport(), { reportType })).GSM as Json;
      const sum = sites.reduce((n, s) => n + Number(s.TotalEndpoints), 0);
      expect(sum).toBe(Number(gsm.TotalEndpointsWithoutTrial) + Number(gsm.TotalTrialEndpoints));
    }
  });

  it('rejects an unknown reportType with 400', async () => {
    const res = await call(em, sitesReport(), { token: tok, query: { reportType: 'DevicesSeen' } });
    await expectProblem(res, 400, 'invalid_parameter', 'reportType');
  });
});

describe('Single-site usage report (4.7)', () => {
  it('narrows the 4.6 shape to the site: SiteKeyFilter, Count 1, the same entry', async () => {
    for (const reportType of ['ActiveEndpoints', 'EndpointsSeenInLast30Days']) {
      const one = await report(siteReport(), { reportType });
      const all = await report(sitesReport(), { reportType });
      expect(info(one).SiteKeyFilter).toBe(fx.site.key);
      expect(info(one).Count).toBe(1);
      expect(info(one).ReportType).toBe(reportType);
      expect(info(one).EffectiveDate).toBe(info(all).EffectiveDate);
      expect(one.Sites).toEqual((all.Sites as Json[]).filter((s) => s.SiteKey === fx.site.key));
    }
  });

  it('matches the site keycode case-insensitively and echoes it in upper case', async () => {
    const body = await report(siteReport(fx.site.key.toLowerCase()));
    expect(info(body).SiteKeyFilter).toBe(fx.site.key);
  });

  it('answers 404 for a site of another GSM, an unknown site and a GSM key as site', async () => {
    for (const key of [fx.foreign.key, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZ99', fx.gsm.key]) {
      await expectProblem(await call(em, siteReport(key), { token: tok }), 404, 'not_found');
    }
  });

  it('answers 400 naming keyCode for a malformed site keycode', async () => {
    await expectProblem(
      await call(em, siteReport('nope'), { token: tok }),
      400,
      'invalid_parameter',
      'keyCode',
    );
  });
});

describe('DNSP site usage report (4.8)', () => {
  it('defaults to DevicesSeenInLast30Days with SiteKeyFilter, Count 1 and every 2.6 field', async () => {
    const body = await report(dnspReport());
    const sites = body.Sites as Json[];
    expectTypes(info(body), { ...REPORT_INFO_ROW, Count: 'integer' }, 'ReportInfo');
    expect(info(body).ReportType).toBe('DevicesSeenInLast30Days');
    expect(info(body).SiteKeyFilter).toBe(fx.site.key);
    expect(info(body).GSMKey).toBe(fx.gsm.key);
    expect(info(body).Count).toBe(1);
    expect(sites).toHaveLength(1);
    expectTypes(sites[0] ?? {}, DNSP_ROW, 'Sites[0]');
    expect(sites[0]?.SiteKey).toBe(fx.site.key);
    expect(sites[0]?.SiteId).toBe(fx.site.id);
    expect(sites[0]?.DNSPEnabled).toBe(fx.site.dnspEnabled);
  });

  it('reports DNSPEnabled and the site id as info() has them, for every site', async () => {
    for (const site of fx.gsm.sites) {
      const entry = ((await report(dnspReport(site.key))).Sites as Json[])[0];
      expect(entry?.DNSPEnabled, site.key).toBe(site.dnspEnabled);
      expect(entry?.SiteId).toBe(site.id);
      expect(entry?.SiteName).toBe(site.name);
    }
  });

  it('reports no DNSP agents, and 4.2 lists none, for a site without DNSP', async () => {
    const all = token(em, ['{base_url}']);
    for (const gsm of fx.info.gsms) {
      for (const site of gsm.sites.filter((s) => !s.dnspEnabled)) {
        const path = `/api/status/reporting/gsm/${gsm.key}/sites/${site.key}/dnsp`;
        const entry = ((await report(path)).Sites as Json[])[0];
        expect(entry?.DNSPEnabled).toBe(false);
        expect(entry?.TotalDNSPAgents).toBe(0);
        const status = await getOk(em, `/api/status/site/dnsp/${site.key}`, { token: await all });
        expect(status.Count).toBe(0);
      }
    }
  });

  it('echoes reportType DevicesSeen', async () => {
    expect(info(await report(dnspReport(), { reportType: 'DevicesSeen' })).ReportType).toBe(
      'DevicesSeen',
    );
  });

  it.each(['ActiveEndpoints', 'EndpointsSeenInLast30Days', 'devicesseen'])(
    'rejects reportType=%j with 400',
    async (reportType) => {
      const res = await call(em, dnspReport(), { token: tok, query: { reportType } });
      await expectProblem(res, 400, 'invalid_parameter', 'reportType');
    },
  );

  it('answers 404 for a site of another GSM', async () => {
    await expectProblem(
      await call(em, dnspReport(fx.foreign.key), { token: tok }),
      404,
      'not_found',
    );
  });
});
