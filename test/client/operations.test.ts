import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthError,
  HttpError,
  type SkywatchClient,
  ValidationError,
  xmlCodec,
} from '../../lib/index.js';
import { CUSTOMER, startWorld, type World } from './support/world.js';

let w: World;
let client: SkywatchClient;
beforeAll(async () => {
  w = await startWorld();
  client = w.client({ xml: xmlCodec });
});
afterAll(() => w.emu.close());

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('SkywatchClient: status operations (4.1–4.4) over HTTP', () => {
  it('4.1 walks every endpoint of a site with only the groups asked for', async () => {
    const entries = await all(
      client.siteAgentStatus(w.site.key, {
        batchSize: 10,
        returnedInfo: ['BasicInfo', 'Scheduling'],
      }),
    );
    expect(entries).toHaveLength(w.site.endpointCount);
    expect(new Set(entries.map((e) => e.MachineID)).size).toBe(entries.length);
    for (const e of entries) {
      expect(e.KC).toBe(w.site.key);
      expect(e.BasicInfo).toBeDefined();
      expect(e.Scheduling).toBeDefined();
      expect(e.ExtendedInfo).toBeUndefined();
    }
  });

  it('4.1 returns every group by default, one endpoint by machineId, none modified in the future', async () => {
    const id = w.emu.machineIds(w.site.key, 3)[2] ?? '';
    const one = await all(client.siteAgentStatus(w.site.key.toLowerCase(), { machineId: id }));
    expect(one.map((e) => e.MachineID)).toEqual([id]);
    expect(Object.keys(one[0] ?? {})).toEqual(
      expect.arrayContaining([
        'BasicInfo',
        'ExtendedInfo',
        'TimesAndStats',
        'Scheduling',
        'EnabledFeatures',
        'SystemAnalyzer',
        'OSAndVersions',
      ]),
    );
    expect(await all(client.siteAgentStatus(w.site.key, { modifiedSince: '2026-07-01' }))).toEqual(
      [],
    );
  });

  it('4.2 lists DNSP status of a site', async () => {
    const entries = await all(client.siteDnspStatus(w.dnspSite.key, { batchSize: 5 }));
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((e) => e.KC === w.dnspSite.key && e.MasterKC === w.gsm.key)).toBe(true);
  });

  it('4.3 walks every endpoint of a GSM', async () => {
    const entries = await all(
      client.gsmAgentStatus(w.gsm.key, { batchSize: 1000, returnedInfo: ['BasicInfo'] }),
    );
    expect(entries).toHaveLength(w.gsm.endpointCount);
  });

  it('4.4 lists DNSP status of a GSM', async () => {
    const page = await client.gsmDnspStatus(w.gsm.key, { batchSize: 2 }).firstPage();
    expect(page.entries).toHaveLength(2);
    expect(page.continuationToken).toEqual(expect.any(String));
    expect(page.raw.Count).toBe(2);
  });
});

describe('SkywatchClient: reports (4.5–4.8) over HTTP', () => {
  it('4.5 answers the GSM summary for a report type and date', async () => {
    const r = await client.gsmUsageReport(w.gsm.key, {
      reportType: 'ActiveEndpoints',
      effectiveDate: '2026-06-01',
    });
    expect(r.ReportInfo).toMatchObject({
      ReportType: 'ActiveEndpoints',
      EffectiveDate: '2026-06-01T00:00:00Z',
      GSMKey: w.gsm.key,
    });
    expect(r.GSM?.GSMConsoleName).toBe(w.gsm.name);
  });

  it('4.6 lists every site; 4.7 narrows to one', async () => {
    const sites = await client.sitesUsageReport(w.gsm.key);
    expect(sites.Sites?.map((s) => s.SiteKey).sort()).toEqual(w.gsm.sites.map((s) => s.key).sort());
    const one = await client.siteUsageReport(w.gsm.key, w.site.key, {
      reportType: 'EndpointsSeenInLast30Days',
    });
    expect(one.ReportInfo?.SiteKeyFilter).toBe(w.site.key);
    expect(one.Sites?.map((s) => s.SiteId)).toEqual([w.site.id]);
  });

  it('4.8 gives the same report in JSON and XML', async () => {
    const json = await client.siteDnspUsageReport(w.gsm.key, w.dnspSite.key, {
      reportType: 'DevicesSeen',
    });
    const xml = await client.siteDnspUsageReport(w.gsm.key, w.dnspSite.key, {
      reportType: 'DevicesSeen',
      format: 'xml',
    });
    expect(xml).toEqual(json);
    expect(json.ReportInfo).toMatchObject({
      Count: 1,
      SiteKeyFilter: w.dnspSite.key,
      ReportType: 'DevicesSeen',
    });
  });
});

describe('SkywatchClient: the XML codec is opt-in', () => {
  it('refuses XML without the codec before sending anything', async () => {
    const jsonOnly = w.client();
    const before = w.emu.stats().requests;
    const call = jsonOnly.siteDnspUsageReport(w.gsm.key, w.dnspSite.key, { format: 'xml' });
    await expect(call).rejects.toBeInstanceOf(ValidationError);
    await expect(call).rejects.toThrow(/xml: xmlCodec/);
    expect(w.emu.stats().requests).toBe(before);
  });
});

describe('SkywatchClient: blocked URLs and carts (4.9, 4.10) over HTTP', () => {
  it('4.9 gives the same counts in JSON and XML, newest day first', async () => {
    const opts = { startDate: '2026-06-10', includeHidden: true } as const;
    const json = await client.blockedUrlCounts(w.gsm.key, w.site.id, opts);
    const xml = await client.blockedUrlCounts(w.gsm.key, w.site.id.toUpperCase(), {
      ...opts,
      format: 'xml',
    });
    expect(xml).toEqual(json);
    expect(json.IncludeHidden).toBe(true);
    expect(json.DatedCounts?.map((d) => d.Date)).toEqual([
      '2026-06-15T00:00:00Z',
      '2026-06-14T00:00:00Z',
      '2026-06-13T00:00:00Z',
      '2026-06-12T00:00:00Z',
      '2026-06-11T00:00:00Z',
      '2026-06-10T00:00:00Z',
    ]);
  });

  it('4.9 counts added actions', async () => {
    const before = await client.blockedUrlCounts(w.gsm.key, w.site.id);
    w.emu.addBlockedUrls(w.site.id, '2026-06-14', 5000);
    const after = await client.blockedUrlCounts(w.gsm.key, w.site.id);
    const day = (r: typeof before) =>
      r.DatedCounts?.find((d) => d.Date?.startsWith('2026-06-14'))?.Count ?? 0;
    expect(day(after) - day(before)).toBe(5000);
  });

  it('4.10 sets customers in JSON and in XML (nil markers both ways)', async () => {
    const body = { Shipping: CUSTOMER, Reseller: { ...CUSTOMER, FirstName: 'Res' } };
    const json = await client.addCartCustomers(w.resellerCart.vendorOrderCode, body);
    const xml = await client.addCartCustomers(w.resellerCart.vendorOrderCode, body, {
      format: 'xml',
    });
    expect(xml).toEqual(json);
    expect(json.Shipping).toMatchObject({
      FirstName: 'Grace',
      Address2: null,
      CustomerTypeId: 2,
      CustomerTypeDescription: 'Shipping',
    });
    expect(json.Reseller).toMatchObject({ FirstName: 'Res', CustomerTypeId: 3 });
    expect(json.Billing?.CustomerTypeId).toBe(1);
    const standard = await client.addCartCustomers(w.standardCart.vendorOrderCode, body, {
      format: 'xml',
    });
    expect(standard.Reseller).toBeUndefined();
  });
});

describe('SkywatchClient: errors from the service', () => {
  it('maps a 404 to HttpError with the problem body', async () => {
    const error = await client.gsmUsageReport('ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 404,
      method: 'GET',
      problem: { code: 'not_found', status: 404 },
    });
    const path = '/api/status/reporting/gsm/ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZZZ';
    expect((error as HttpError).path).toBe(`${new URL(w.emu.baseUrl).pathname}${path}`);
    expect((error as HttpError).url).toBe(`${w.emu.baseUrl}${path}`);
    const cart = await client
      .addCartCustomers('SO-NOPE', { Shipping: CUSTOMER })
      .catch((e: unknown) => e);
    expect(cart).toMatchObject({ status: 404, method: 'POST' });
  });

  it('maps a 403 to AuthError naming the scope when the local check is off', async () => {
    const reports = w.info.users.find((u) => u.username === 'reports@example.com');
    const limited = w.client({
      checkScopes: false,
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        username: reports?.username ?? '',
        password: reports?.password ?? '',
      },
    });
    const error = await limited
      .gsmAgentStatus(w.gsm.key)
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({
      code: 'insufficient_scope',
      scope: 'SkyStatus.GSM',
      status: 403,
    });
  });
});
