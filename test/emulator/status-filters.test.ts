import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  type Emulator,
  expectProblem,
  fixture,
  GROUPS,
  getOk,
  type Json,
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
  em = await start();
  tok = await token(em);
  fx = fixture(em);
});
afterAll(() => em.close());
// Some tests move the clock past the access-token lifetime.
beforeEach(async () => {
  tok = await token(em);
});

async function page(path: string, query: Query = {}): Promise<Page> {
  return (await getOk(em, path, {
    token: tok,
    query,
  })) as unknown as Page;
}

const routes = () => ({
  site: `/api/status/site/${fx.site.key}`,
  siteDnsp: `/api/status/site/dnsp/${fx.site.key}`,
  gsm: `/api/status/gsm/${fx.gsm.key}`,
  gsmDnsp: `/api/status/gsm/dnsp/${fx.gsm.key}`,
});
const ROUTES = ['site', 'siteDnsp', 'gsm', 'gsmDnsp'] as const;

describe('Status filters: machineId', () => {
  it.each(ROUTES)('returns exactly the endpoint asked for on %s', async (route) => {
    const [id] = em.machineIds(fx.site.key, 1);
    const p = await page(routes()[route], { machineId: id });
    expect(p.Count).toBe(1);
    expect(machineIdsOf(p.QueryResults)).toEqual([id]);
    expect(p.ContinuationToken).toBeNull();
  });

  it('returns an empty batch for an endpoint of another site', async () => {
    const [foreign] = em.machineIds(fx.foreign.key, 1);
    const p = await page(routes().site, { machineId: foreign });
    expect(p).toEqual({
      QueryResults: [],
      ContinuationToken: null,
      ContinuationURI: null,
      Count: 0,
    });
    const g = await page(routes().gsm, { machineId: foreign });
    expect(g.Count).toBe(0);
  });

  it.each(ROUTES)(
    'returns an empty batch for a well-formed unknown MachineID on %s',
    async (route) => {
      const p = await page(routes()[route], { machineId: 'AAAA:::BBBB:::CCCC' });
      expect(p.Count).toBe(0);
      expect(p.QueryResults).toEqual([]);
    },
  );

  it.each([
    'AAAA:::BBBB',
    'A:::B:::C:::D',
    ':::B:::C',
    'A::::::C',
    'A:::B:x:::C',
    'A:::B:::',
    'plain',
  ])('rejects the malformed MachineID %j with 400 naming machineId', async (machineId) => {
    const res = await call(em, routes().site, { token: tok, query: { machineId } });
    await expectProblem(res, 400, 'invalid_parameter', 'machineId');
  });
});

describe('Status filters: modifiedSince', () => {
  it('returns only an endpoint infected after the instant', async () => {
    em.advanceClock(3600);
    tok = await token(em);
    const since = em.now().toISOString();
    const [id] = em.machineIds(fx.site.key, 3).slice(2);
    em.advanceClock(1);
    em.endpointAction(id ?? '', 'infect', 'Worm|Linux|Filter');
    const p = await page(routes().site, { modifiedSince: since });
    expect(machineIdsOf(p.QueryResults)).toEqual([id]);
    expect(Date.parse(String(p.QueryResults[0]?.LastChanged))).toBe(em.now().getTime());
    const g = await page(routes().gsm, { modifiedSince: since });
    expect(machineIdsOf(g.QueryResults)).toEqual([id]);
  });

  it('includes an entry changed exactly at the instant', async () => {
    em.advanceClock(60);
    const [id] = em.machineIds(fx.small.key, 1);
    em.endpointAction(id ?? '', 'hide');
    const p = await page(`/api/status/site/${fx.small.key}`, {
      modifiedSince: em.now().toISOString(),
    });
    expect(machineIdsOf(p.QueryResults)).toEqual([id]);
  });

  it.each([
    ['site', 'LastChanged'],
    ['gsm', 'LastChanged'],
    ['siteDnsp', 'LastSeenDate'],
    ['gsmDnsp', 'LastModifiedDate'],
  ] as const)('filters %s exactly as comparing %s client-side', async (route, field) => {
    const all = (await walk(em, routes()[route], tok, { batchSize: 1000 })).entries;
    const stamps = all.map((e) => Date.parse(String(e[field]))).sort((a, b) => a - b);
    for (const q of [0.25, 0.5, 0.9]) {
      const cut = stamps[Math.floor(stamps.length * q)] ?? 0;
      const expected = all.filter((e) => Date.parse(String(e[field])) >= cut);
      const got = (
        await walk(em, routes()[route], tok, {
          modifiedSince: new Date(cut).toISOString(),
          batchSize: 13,
        })
      ).entries;
      expect(machineIdsOf(got)).toEqual(machineIdsOf(expected));
      expect(got.length).toBeGreaterThan(0);
    }
  });

  it('reads an offset the same as the UTC instant, and a date alone as 00:00 UTC', async () => {
    const path = routes().gsm;
    const utc = await walk(em, path, tok, {
      modifiedSince: '2026-06-14T22:00:00Z',
      batchSize: 1000,
    });
    const offset = await walk(em, path, tok, {
      modifiedSince: '2026-06-15T00:00:00+02:00',
      batchSize: 1000,
    });
    expect(machineIdsOf(offset.entries)).toEqual(machineIdsOf(utc.entries));
    const dateOnly = await walk(em, path, tok, { modifiedSince: '2026-06-14', batchSize: 1000 });
    const midnight = await walk(em, path, tok, {
      modifiedSince: '2026-06-14T00:00:00Z',
      batchSize: 1000,
    });
    expect(machineIdsOf(dateOnly.entries)).toEqual(machineIdsOf(midnight.entries));
  });

  it('returns an empty result for an instant in the future', async () => {
    const future = new Date(em.now().getTime() + 60_000).toISOString();
    const p = await page(routes().gsm, { modifiedSince: future });
    expect(p.Count).toBe(0);
  });

  it.each(['yesterday', '2026-13-01', '2026-06-15T25:00:00Z', '12345'])(
    'rejects modifiedSince=%j with 400 naming modifiedSince',
    async (modifiedSince) => {
      const res = await call(em, routes().site, { token: tok, query: { modifiedSince } });
      await expectProblem(res, 400, 'invalid_parameter', 'modifiedSince');
    },
  );
});

describe('Status filters: returnedInfo', () => {
  function groupsOf(entry: Json | undefined): string[] {
    return GROUPS.filter((g) => entry !== undefined && g in entry);
  }

  it('returns every group as a nested object when omitted', async () => {
    const p = await page(routes().site, { batchSize: 5 });
    for (const e of p.QueryResults) {
      expect(groupsOf(e)).toEqual([...GROUPS]);
      for (const g of GROUPS) expect(e[g]).toBeTypeOf('object');
    }
  });

  it.each([
    ['BasicInfo', ['BasicInfo']],
    ['Scheduling,BasicInfo', ['BasicInfo', 'Scheduling']],
    ['OSAndVersions , SystemAnalyzer', ['SystemAnalyzer', 'OSAndVersions']],
  ])('returns only the groups of %j', async (returnedInfo, expected) => {
    for (const path of [routes().site, routes().gsm]) {
      const p = await page(path, { batchSize: 3, returnedInfo });
      for (const e of p.QueryResults) {
        expect(groupsOf(e)).toEqual(expected);
        expect(typeof e.MachineID).toBe('string');
        expect(typeof e.HostName).toBe('string');
      }
    }
  });

  it.each(['Basic', 'basicinfo', '', 'BasicInfo,', 'BasicInfo,Nope'])(
    'rejects returnedInfo=%j with 400 naming returnedInfo',
    async (returnedInfo) => {
      const res = await call(em, routes().gsm, { token: tok, query: { returnedInfo } });
      await expectProblem(res, 400, 'invalid_parameter', 'returnedInfo');
    },
  );
});

describe('Status: keycodes', () => {
  it.each(ROUTES)('answers 400 naming keyCode for a malformed keycode on %s', async (route) => {
    const path = routes()[route].replace(/[^/]+$/, 'ABCD-EFGH');
    await expectProblem(await call(em, path, { token: tok }), 400, 'invalid_parameter', 'keyCode');
  });

  it.each(ROUTES)('answers 404 for a well-formed unknown keycode on %s', async (route) => {
    const path = routes()[route].replace(/[^/]+$/, 'ZZZZ-ZZZZ-ZZZZ-ZZZZ-ZZ99');
    await expectProblem(await call(em, path, { token: tok }), 404, 'not_found');
  });

  it('answers 404 for a site keycode on the GSM routes and the reverse', async () => {
    for (const path of [
      `/api/status/gsm/${fx.site.key}`,
      `/api/status/gsm/dnsp/${fx.site.key}`,
      `/api/status/site/${fx.gsm.key}`,
      `/api/status/site/dnsp/${fx.gsm.key}`,
    ]) {
      await expectProblem(await call(em, path, { token: tok }), 404, 'not_found');
    }
  });

  it.each(['%E0%A4%A', '%ZZ', 'ABCD-EFGH-IJKL-MNOP-QRS%'])(
    'answers 400 (not 500) for the malformed percent-encoding %s in the keycode',
    async (raw) => {
      const res = await fetch(`${em.baseUrl}/api/status/site/${raw}`, {
        headers: { Authorization: `Bearer ${tok}`, 'User-Agent': 'conformance' },
      });
      await expectProblem(res, 400, 'invalid_parameter', 'keyCode');
    },
  );

  it('matches keycodes case-insensitively and answers in upper case', async () => {
    const p = await page(`/api/status/site/${fx.site.key.toLowerCase()}`, { batchSize: 2 });
    expect(p.Count).toBe(2);
    for (const e of p.QueryResults) {
      expect(e.KC).toBe(fx.site.key);
      expect(e.MasterKC).toBe(fx.gsm.key);
    }
  });
});
