import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  callUrl,
  type Emulator,
  expectProblem,
  fixture,
  getOk,
  machineIdsOf,
  type Page,
  type Query,
  start,
  token,
  walk,
} from './helpers.js';

let em: Emulator;
let tok: string;
let fx: ReturnType<typeof fixture>;

beforeAll(async () => {
  em = await start({ endpointsPerGsm: 400 });
  tok = await token(em);
  fx = fixture(em);
});
afterAll(() => em.close());

const sitePath = () => `/api/status/site/${fx.site.key}`;
const gsmPath = () => `/api/status/gsm/${fx.gsm.key}`;

async function page(path: string, query: Query = {}): Promise<Page> {
  return (await getOk(em, path, {
    token: tok,
    query,
  })) as unknown as Page;
}

describe('Paging (4.1–4.4): ContinuationURI', () => {
  it('is absolute, under the base URL, and carries every query parameter and the token', async () => {
    const query = {
      batchSize: 3,
      returnedInfo: 'BasicInfo,Scheduling',
      modifiedSince: '2020-01-01T00:00:00Z',
    };
    const first = await page(sitePath(), query);
    const next = new URL(first.ContinuationURI ?? '');
    expect(next.href.startsWith(`${em.baseUrl}/api/status/site/${fx.site.key}`)).toBe(true);
    expect(next.searchParams.get('continuation')).toBe(first.ContinuationToken);
    expect(next.searchParams.get('batchSize')).toBe('3');
    expect(next.searchParams.get('returnedInfo')?.replace(/\s/g, '')).toBe('BasicInfo,Scheduling');
    expect(Date.parse(next.searchParams.get('modifiedSince') ?? '')).toBe(
      Date.parse(query.modifiedSince),
    );
  });

  it('keeps a + in an offset encoded, so following the URI selects the same entries', async () => {
    const query = { batchSize: 2, modifiedSince: '2020-01-01T02:00:00+02:00' };
    const first = await page(gsmPath(), query);
    const next = new URL(first.ContinuationURI ?? '');
    expect(next.searchParams.get('modifiedSince')).toBe(query.modifiedSince);
    const viaUri = await callUrl(next.href, { token: tok });
    expect(viaUri.status).toBe(200);
    const byHand = await page(gsmPath(), { ...query, continuation: first.ContinuationToken });
    expect(await viaUri.json()).toEqual(byHand);
  });

  it('gives the same next page as passing the token by hand', async () => {
    const query = { batchSize: 4, returnedInfo: 'ExtendedInfo' };
    const first = await page(gsmPath(), query);
    const viaUri = await callUrl(first.ContinuationURI ?? '', { token: tok });
    expect(viaUri.status).toBe(200);
    const byHand = await page(gsmPath(), { ...query, continuation: first.ContinuationToken });
    expect(await viaUri.json()).toEqual(byHand);
    expect(machineIdsOf(byHand.QueryResults)).not.toEqual(machineIdsOf(first.QueryResults));
  });

  it('is null together with the token on the last page', async () => {
    const { pages } = await walk(em, sitePath(), tok, { batchSize: 10 });
    const last = pages[pages.length - 1];
    expect(last?.ContinuationToken).toBeNull();
    expect(last?.ContinuationURI).toBeNull();
    for (const p of pages.slice(0, -1)) {
      expect(p.ContinuationToken).not.toBeNull();
      expect(p.ContinuationURI).not.toBeNull();
    }
  });

  it('is null on an empty first batch', async () => {
    const empty = await page(sitePath(), { modifiedSince: '2999-01-01T00:00:00Z' });
    expect(empty).toEqual({
      QueryResults: [],
      ContinuationToken: null,
      ContinuationURI: null,
      Count: 0,
    });
  });

  it('is null when the entries end exactly on a batch boundary', async () => {
    const n = fx.small.endpointCount;
    const only = await page(`/api/status/site/${fx.small.key}`, { batchSize: n });
    expect(only.Count).toBe(n);
    expect(only.ContinuationToken).toBeNull();
    expect(only.ContinuationURI).toBeNull();
  });
});

describe('Paging (4.1–4.4): continuation token misuse', () => {
  async function firstToken(query: Query = {}): Promise<string> {
    const first = await page(sitePath(), { batchSize: 2, ...query });
    return first.ContinuationToken ?? '';
  }

  it('rejects a tampered token with 400 naming continuation', async () => {
    const t = await firstToken();
    const i = Math.floor(t.length / 2);
    const tampered = `${t.slice(0, i)}${t[i] === 'A' ? 'B' : 'A'}${t.slice(i + 1)}`;
    const res = await call(em, sitePath(), { token: tok, query: { continuation: tampered } });
    await expectProblem(res, 400, 'invalid_parameter', 'continuation');
  });

  it('rejects a token used for another site', async () => {
    const t = await firstToken();
    const other = fx.gsm.sites.find((s) => s.key !== fx.site.key)?.key ?? '';
    const res = await call(em, `/api/status/site/${other}`, {
      token: tok,
      query: { continuation: t },
    });
    await expectProblem(res, 400, 'invalid_parameter', 'continuation');
  });

  it('rejects a token used with another returnedInfo', async () => {
    const t = await firstToken({ returnedInfo: 'BasicInfo' });
    const res = await call(em, sitePath(), {
      token: tok,
      query: { continuation: t, returnedInfo: 'ExtendedInfo' },
    });
    await expectProblem(res, 400, 'invalid_parameter', 'continuation');
  });

  it('rejects a token used with another modifiedSince', async () => {
    const t = await firstToken({ modifiedSince: '2020-01-01T00:00:00Z' });
    const res = await call(em, sitePath(), {
      token: tok,
      query: { continuation: t, modifiedSince: '2021-01-01T00:00:00Z' },
    });
    await expectProblem(res, 400, 'invalid_parameter', 'continuation');
  });

  it('rejects a token used on another operation', async () => {
    const t = await firstToken();
    const res = await call(em, `/api/status/site/dnsp/${fx.site.key}`, {
      token: tok,
      query: { continuation: t },
    });
    await expectProblem(res, 400, 'invalid_parameter', 'continuation');
  });

  it('rejects a token with anything appended', async () => {
    const t = await firstToken();
    for (const tampered of [`${t}.x`, `${t}x`, `${t}.${t}`]) {
      const res = await call(em, sitePath(), { token: tok, query: { continuation: tampered } });
      await expectProblem(res, 400, 'invalid_parameter', 'continuation');
    }
  });

  it('rejects garbage as a token', async () => {
    const res = await call(em, sitePath(), { token: tok, query: { continuation: 'not-a-token' } });
    await expectProblem(res, 400, 'invalid_parameter', 'continuation');
  });
});

describe('Paging (4.1–4.4): every route', () => {
  it.each([
    ['/api/status/site/', 'site'],
    ['/api/status/site/dnsp/', 'site'],
    ['/api/status/gsm/', 'gsm'],
    ['/api/status/gsm/dnsp/', 'gsm'],
  ] as const)('gives %s an absolute ContinuationURI on its own route', async (prefix, kind) => {
    const key = kind === 'site' ? fx.site.key : fx.gsm.key;
    const first = await page(`${prefix}${key}`, { batchSize: 2 });
    expect(first.Count).toBe(2);
    const next = new URL(first.ContinuationURI ?? '');
    expect(`${next.origin}${next.pathname}`).toBe(`${em.baseUrl}${prefix}${key}`);
    const viaUri = await callUrl(next.href, { token: tok });
    const body = (await viaUri.json()) as Page;
    expect(body.Count).toBe(body.QueryResults.length);
    expect(machineIdsOf(body.QueryResults)).not.toContain(first.QueryResults[0]?.MachineID);
  });
});
