import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SkywatchClient, ValidationError } from '../../lib/index.js';
import { CUSTOMER, startWorld, type World } from './support/world.js';

let w: World;
let client: SkywatchClient;
beforeAll(async () => {
  w = await startWorld();
  client = w.client();
});
afterAll(() => w.emu.close());

describe('SkywatchClient: validation before any request', () => {
  const cases: Array<[string, string, () => unknown]> = [
    ['keyCode', 'five groups', () => client.siteAgentStatus('ABC')],
    ['gsmKey', 'five groups', () => client.gsmUsageReport('not-a-key')],
    ['machineId', ':::', () => client.siteAgentStatus(w.site.key, { machineId: 'a::b::c' })],
    ['siteId', 'UUID', () => client.blockedUrlCounts(w.gsm.key, 'site-1')],
    ['batchSize', '1 to 1000', () => client.gsmAgentStatus(w.gsm.key, { batchSize: 1001 })],
    ['batchSize', '1 to 1000', () => client.gsmDnspStatus(w.gsm.key, { batchSize: 0 })],
    [
      'returnedInfo',
      'not a group',
      () => client.gsmAgentStatus(w.gsm.key, { returnedInfo: ['Basic' as never] }),
    ],
    [
      'endDate',
      '30 days',
      () =>
        client.blockedUrlCounts(w.gsm.key, w.site.id, {
          startDate: '2026-05-01',
          endDate: '2026-06-05',
        }),
    ],
    [
      'startDate',
      'before endDate',
      () =>
        client.blockedUrlCounts(w.gsm.key, w.site.id, {
          startDate: '2026-06-10',
          endDate: '2026-06-09',
        }),
    ],
    [
      'startDate',
      '90 days',
      () =>
        client.blockedUrlCounts(w.gsm.key, w.site.id, {
          startDate: '2026-03-01',
          endDate: '2026-03-05',
        }),
    ],
    [
      'effectiveDate',
      'day before yesterday',
      () => client.gsmUsageReport(w.gsm.key, { effectiveDate: '2026-06-14' }),
    ],
    [
      'effectiveDate',
      'day before yesterday',
      () =>
        client.siteDnspUsageReport(w.gsm.key, w.site.key, {
          effectiveDate: new Date(Date.parse('2026-06-15T00:00:00Z')),
        }),
    ],
    [
      'reportType',
      'one of',
      () => client.sitesUsageReport(w.gsm.key, { reportType: 'DevicesSeen' as never }),
    ],
    [
      'reportType',
      'one of',
      () =>
        client.siteDnspUsageReport(w.gsm.key, w.site.key, {
          reportType: 'ActiveEndpoints' as never,
        }),
    ],
    [
      'Shipping',
      'required',
      () => client.addCartCustomers(w.resellerCart.vendorOrderCode, {} as never),
    ],
    [
      'Shipping.Country',
      'iso 3166-1 alpha-2',
      () =>
        client.addCartCustomers(w.resellerCart.vendorOrderCode, {
          Shipping: { ...CUSTOMER, Country: 'Germany' },
        }),
    ],
    [
      'Shipping.CustomerEmail',
      'e-mail',
      () =>
        client.addCartCustomers(w.resellerCart.vendorOrderCode, {
          Shipping: { ...CUSTOMER, CustomerEmail: 'x@y' },
        }),
    ],
    [
      'Reseller.LastName',
      'required',
      () =>
        client.addCartCustomers(w.resellerCart.vendorOrderCode, {
          Shipping: CUSTOMER,
          Reseller: { ...CUSTOMER, LastName: undefined as never },
        }),
    ],
  ];

  it.each(cases)('rejects a bad %s (%s) and sends nothing', async (field, rule, call) => {
    await client.gsmUsageReport(w.gsm.key); // token obtained, so only the operation could be sent
    const before = w.emu.stats().requests;
    let error: unknown;
    try {
      await call();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe(field);
    expect((error as ValidationError).rule.toLowerCase()).toContain(rule.toLowerCase());
    expect(w.emu.stats().requests).toBe(before);
  });
});
