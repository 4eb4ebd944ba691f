import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHIPPING } from './customers.js';
import {
  call,
  callUrl,
  type Emulator,
  expectProblem,
  fixture,
  getOk,
  type Json,
  type Page,
  start,
  token,
} from './helpers.js';

let em: Emulator;
let tok: string;
let paths: Record<string, string>;

beforeAll(async () => {
  em = await start();
  const fx = fixture(em);
  const cart = em.info().carts[0]?.vendorOrderCode ?? '';
  paths = {
    '4.1': `/api/status/site/${fx.site.key}`,
    '4.2': `/api/status/site/dnsp/${fx.site.key}`,
    '4.3': `/api/status/gsm/${fx.gsm.key}`,
    '4.4': `/api/status/gsm/dnsp/${fx.gsm.key}`,
    '4.5': `/api/status/reporting/gsm/${fx.gsm.key}`,
    '4.6': `/api/status/reporting/gsm/${fx.gsm.key}/sites`,
    '4.7': `/api/status/reporting/gsm/${fx.gsm.key}/sites/${fx.site.key}`,
    '4.8': `/api/status/reporting/gsm/${fx.gsm.key}/sites/${fx.site.key}/dnsp`,
    '4.9': `/api/console/gsm/${fx.gsm.key}/sites/${fx.site.id}/blockedurls/counts`,
    '4.10': `/api/ecom/shop/carts/${cart}/customers`,
  };
  tok = await token(em);
});
afterAll(() => em.close());

function send(op: string, query: Record<string, string>) {
  const post = op === '4.10';
  const target = new URL(`${em.baseUrl}${paths[op]}`);
  for (const [k, v] of Object.entries(query)) target.searchParams.append(k, v);
  return callUrl(target.toString(), {
    token: tok,
    ...(post
      ? {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ Shipping: SHIPPING }),
        }
      : {}),
  });
}

describe('Query parameters: only the ones an operation takes', () => {
  it.each([
    ['4.1', 'sort', 'machineId, returnedInfo, modifiedSince, batchSize, continuation'],
    ['4.1', 'orderBy', 'machineId, returnedInfo'],
    ['4.2', 'returnedInfo', 'machineId, modifiedSince, batchSize, continuation'],
    ['4.3', 'modifedSince', 'modifiedSince'],
    ['4.4', 'page', 'batchSize'],
    ['4.5', 'batchSize', 'reportType, effectiveDate'],
    ['4.6', 'siteKey', 'reportType, effectiveDate'],
    ['4.7', 'top', 'reportType, effectiveDate'],
    ['4.8', 'format', 'reportType, effectiveDate'],
    ['4.9', 'includeUninstalled', 'includeDeactivated, includeHidden, startDate, endDate'],
    ['4.10', 'dryRun', 'which takes none'],
    ['4.5', 'api-version', 'reportType, effectiveDate'],
  ])(
    'answers %s with 400 naming the unknown parameter %s and listing its own',
    async (op, name, listed) => {
      const body = await expectProblem(
        await send(op, { [name]: 'x' }),
        400,
        'invalid_parameter',
        name,
      );
      expect(String(body.detail)).toContain(listed);
    },
  );

  it('checks the access token before the parameters', async () => {
    const res = await call(em, paths['4.3'] ?? '', { query: { sort: 'HostName' } });
    await expectProblem(res, 401, 'invalid_token');
  });
});

describe('Versioning: no selection', () => {
  it('ignores an api-version request header and names the one version it serves', async () => {
    const res = await call(em, paths['4.5'] ?? '', {
      token: tok,
      headers: { 'api-version': '2.0' },
    });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('api-version')).toBe('1.0.26271.1');
  });
});

describe('Query parameters: names in any letter case, each at most once', () => {
  it('reads parameter names case-insensitively', async () => {
    const page = (await getOk(em, paths['4.3'] ?? '', {
      token: tok,
      query: { BATCHSIZE: 2, returnedinfo: 'BasicInfo' },
    })) as unknown as Page;
    expect(page.Count).toBe(2);
    expect(Object.keys(page.QueryResults[0] ?? {})).toContain('BasicInfo');
    expect(Object.keys(page.QueryResults[0] ?? {})).not.toContain('OSAndVersions');
    const report = await getOk(em, paths['4.5'] ?? '', {
      token: tok,
      query: { REPORTTYPE: 'ActiveEndpoints' },
    });
    expect((report.ReportInfo as Json).ReportType).toBe('ActiveEndpoints');
    const counts = await getOk(em, paths['4.9'] ?? '', {
      token: tok,
      query: { IncludeHidden: 'true' },
    });
    expect(counts.IncludeHidden).toBe(true);
  });

  it.each([
    ['4.3', 'batchSize', 'batchSize'],
    ['4.3', 'batchSize', 'BatchSize'],
    ['4.5', 'reportType', 'REPORTTYPE'],
    ['4.9', 'includeHidden', 'includehidden'],
  ])(
    'answers %s with 400 when %s is given twice (as %s the second time)',
    async (op, first, second) => {
      const target = new URL(`${em.baseUrl}${paths[op]}`);
      const value =
        first === 'batchSize' ? '2' : first === 'reportType' ? 'ActiveEndpoints' : 'true';
      target.searchParams.append(first, value);
      target.searchParams.append(second, value);
      const body = await expectProblem(
        await callUrl(target.toString(), { token: tok }),
        400,
        'invalid_parameter',
        second,
      );
      expect(String(body.detail)).toContain('more than once');
    },
  );

  it('follows a ContinuationURI of a request whose names were in another case', async () => {
    const first = (await getOk(em, paths['4.3'] ?? '', {
      token: tok,
      query: { BatchSize: 3, ReturnedInfo: 'BasicInfo' },
    })) as unknown as Page;
    expect(first.ContinuationURI).not.toBeNull();
    const res = await callUrl(first.ContinuationURI ?? '', { token: tok });
    const second = JSON.parse(await res.text()) as Page;
    expect(res.status).toBe(200);
    expect(second.Count).toBe(3);
    expect(second.QueryResults[0]?.MachineID).not.toBe(first.QueryResults[0]?.MachineID);
  });
});
