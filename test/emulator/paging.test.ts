import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
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

describe('Paging (4.1–4.4): batchSize', () => {
  it.each([
    '/api/status/site/',
    '/api/status/site/dnsp/',
    '/api/status/gsm/',
    '/api/status/gsm/dnsp/',
  ])('returns 50 entries by default on %s', async (prefix) => {
    expect(fx.site.endpointCount).toBeGreaterThan(60);
    const key = prefix.includes('gsm') ? fx.gsm.key : fx.site.key;
    const all = await walk(em, `${prefix}${key}`, tok, { batchSize: 1000 });
    expect(all.entries.length).toBeGreaterThan(50);
    const first = await page(`${prefix}${key}`);
    expect(first.QueryResults).toHaveLength(50);
    expect(first.Count).toBe(50);
    expect(typeof first.ContinuationToken).toBe('string');
    expect(typeof first.ContinuationURI).toBe('string');
  });

  it('accepts batchSize 1', async () => {
    const first = await page(sitePath(), { batchSize: 1 });
    expect(first.Count).toBe(1);
    expect(first.QueryResults).toHaveLength(1);
  });

  it('accepts batchSize 1000 and then needs no continuation for a small site', async () => {
    const first = await page(gsmPath(), { batchSize: 1000 });
    expect(first.Count).toBe(fx.gsm.endpointCount);
    expect(first.ContinuationToken).toBeNull();
    expect(first.ContinuationURI).toBeNull();
  });

  it.each(['0', '1001', 'abc', '1.5', '-1', '', '1e2'])(
    'rejects batchSize=%j with 400 naming batchSize',
    async (batchSize) => {
      const res = await call(em, sitePath(), { token: tok, query: { batchSize } });
      await expectProblem(res, 400, 'invalid_parameter', 'batchSize');
    },
  );

  it.each(['4.2 site dnsp', '4.4 gsm dnsp'])('validates batchSize on %s too', async (which) => {
    const path = which.startsWith('4.2')
      ? `/api/status/site/dnsp/${fx.site.key}`
      : `/api/status/gsm/dnsp/${fx.gsm.key}`;
    const res = await call(em, path, { token: tok, query: { batchSize: 1001 } });
    await expectProblem(res, 400, 'invalid_parameter', 'batchSize');
  });
});

describe('Paging (4.1–4.4): walking every page', () => {
  it('walks each site with no duplicates and exactly info() endpoint count', async () => {
    for (const site of fx.gsm.sites) {
      const { entries, pages } = await walk(em, `/api/status/site/${site.key}`, tok, {
        batchSize: 7,
      });
      const ids = machineIdsOf(entries);
      expect(ids).toHaveLength(site.endpointCount);
      expect(new Set(ids).size).toBe(ids.length);
      for (const p of pages) expect(p.Count).toBe(p.QueryResults.length);
      for (const p of pages.slice(0, -1)) expect(p.Count).toBe(7);
      for (const e of entries) {
        expect(e.KC).toBe(site.key);
        expect(e.MasterKC).toBe(fx.gsm.key);
      }
    }
  });

  it('walks a GSM as the union of its sites, in the same order as machineIds()', async () => {
    const { entries } = await walk(em, gsmPath(), tok);
    const ids = machineIdsOf(entries);
    expect(ids).toHaveLength(fx.gsm.endpointCount);
    expect(new Set(ids).size).toBe(ids.length);
    const union = new Set<string>();
    for (const site of fx.gsm.sites) {
      const siteIds = machineIdsOf(
        (await walk(em, `/api/status/site/${site.key}`, tok, { batchSize: 1000 })).entries,
      );
      for (const id of siteIds) union.add(id);
      expect(siteIds.slice(0, 5)).toEqual(em.machineIds(site.key, 5));
    }
    expect(new Set(ids)).toEqual(union);
  });

  it('walks DNSP of a site and of a GSM consistently with agent status', async () => {
    const gsmDnsp = machineIdsOf(
      (await walk(em, `/api/status/gsm/dnsp/${fx.gsm.key}`, tok, { batchSize: 33 })).entries,
    );
    expect(new Set(gsmDnsp).size).toBe(gsmDnsp.length);
    const union = new Set<string>();
    for (const site of fx.gsm.sites) {
      const { entries } = await walk(em, `/api/status/site/dnsp/${site.key}`, tok, {
        batchSize: 9,
      });
      const ids = machineIdsOf(entries);
      expect(new Set(ids).size).toBe(ids.length);
      const agents = new Set(
        machineIdsOf(
          (await walk(em, `/api/status/site/${site.key}`, tok, { batchSize: 1000 })).entries,
        ),
      );
      for (const e of entries) {
        expect(e.KC).toBe(site.key);
        expect(agents.has(String(e.MachineID))).toBe(true);
        union.add(String(e.MachineID));
      }
    }
    expect(new Set(gsmDnsp)).toEqual(union);
  });

  it('lets batchSize change between pages without skipping or repeating', async () => {
    const first = await page(sitePath(), { batchSize: 5 });
    const ids = machineIdsOf(first.QueryResults);
    let continuation = first.ContinuationToken;
    for (let size = 17; continuation !== null; size += 11) {
      const next = await page(sitePath(), { batchSize: size, continuation });
      expect(next.Count).toBeLessThanOrEqual(size);
      ids.push(...machineIdsOf(next.QueryResults));
      continuation = next.ContinuationToken;
    }
    const all = machineIdsOf((await walk(em, sitePath(), tok, { batchSize: 1000 })).entries);
    expect(ids).toEqual(all);
  });
});

describe('Dataset determinism', () => {
  it('builds the same keys and entries from the same seed, and other keys from another', async () => {
    const twin = await start({ endpointsPerGsm: 400 });
    const other = await start({ endpointsPerGsm: 400, seed: 2 });
    try {
      expect(twin.info().gsms).toEqual(em.info().gsms);
      const twinTok = await token(twin);
      const mine = await page(gsmPath(), { batchSize: 20 });
      const theirs = await getOk(twin, gsmPath(), { token: twinTok, query: { batchSize: 20 } });
      expect({ ...theirs, ContinuationToken: null, ContinuationURI: null }).toEqual({
        ...mine,
        ContinuationToken: null,
        ContinuationURI: null,
      });
      expect(other.info().gsms[0]?.key).not.toBe(fx.gsm.key);
    } finally {
      await twin.close();
      await other.close();
    }
  });
});
