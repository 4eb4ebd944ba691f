import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, getOk, type Page, start, token } from './helpers.js';

const ENDPOINTS = 1_000_000;

let em: Emulator;
let tok: string;
let heapGrowthMb: number;

beforeAll(async () => {
  const before = process.memoryUsage().heapUsed;
  em = await start({ gsmCount: 1, sitesPerGsm: 8, endpointsPerGsm: ENDPOINTS });
  heapGrowthMb = (process.memoryUsage().heapUsed - before) / 1e6;
  tok = await token(em);
});
afterAll(() => em.close());

async function page(path: string, query: Record<string, string | number>): Promise<Page> {
  return (await getOk(em, path, { token: tok, query })) as unknown as Page;
}

describe('Emulator at 1,000,000 endpoints in one GSM', () => {
  it('derives endpoints from their index instead of holding them, and counts every one', () => {
    const [gsm] = em.info().gsms;
    // A million materialised entries would take gigabytes; derived ones take next to nothing.
    expect(heapGrowthMb).toBeLessThan(200);
    expect(gsm?.endpointCount).toBe(ENDPOINTS);
    expect(gsm?.sites.reduce((n, s) => n + s.endpointCount, 0)).toBe(ENDPOINTS);
  });

  it('serves full 1,000-entry pages and follows continuations', async () => {
    const key = em.info().gsms[0]?.key ?? '';
    const first = await page(`/api/status/gsm/${key}`, { batchSize: 1000 });
    expect(first.Count).toBe(1000);
    const second = await page(`/api/status/gsm/${key}`, {
      batchSize: 1000,
      continuation: first.ContinuationToken ?? '',
    });
    expect(second.Count).toBe(1000);
    expect(second.QueryResults[0]?.MachineID).not.toBe(first.QueryResults[0]?.MachineID);
  });

  it('finds an endpoint of the last site by machineId', async () => {
    const gsm = em.info().gsms[0];
    const last = gsm?.sites.at(-1);
    const [id] = em.machineIds(last?.key ?? '', 1);
    const hit = await page(`/api/status/gsm/${gsm?.key ?? ''}`, { machineId: id ?? '' });
    expect(hit.QueryResults.map((e) => e.MachineID)).toEqual([id]);
    expect(hit.QueryResults[0]?.KC).toBe(last?.key);
  });

  it('answers a modifiedSince after the latest change with just the changed endpoint', async () => {
    const key = em.info().gsms[0]?.key ?? '';
    const [id] = em.machineIds(em.info().gsms[0]?.sites.at(-1)?.key ?? '', 1);
    em.advanceClock(60);
    const since = em.now().toISOString();
    em.endpointAction(id ?? '', 'infect');
    const hit = await page(`/api/status/gsm/${key}`, { modifiedSince: since });
    expect(hit.QueryResults.map((e) => e.MachineID)).toEqual([id]);
  });
});
