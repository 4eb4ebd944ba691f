import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  type Emulator,
  expectProblem,
  fixture,
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

beforeAll(async () => {
  em = await start({ endpointsPerGsm: 300 });
  tok = await token(em);
});
afterAll(() => em.close());

async function page(path: string, query: Query): Promise<Page> {
  return (await getOk(em, path, {
    token: tok,
    query,
  })) as unknown as Page;
}

async function walkChanging(
  path: string,
  batchSize: number,
  change: (pageNo: number, seen: string[]) => void,
) {
  const seen: Json[] = [];
  let continuation: string | undefined;
  for (let n = 0; n < 1000; n += 1) {
    const p = await page(path, { batchSize, continuation });
    seen.push(...p.QueryResults);
    if (p.ContinuationToken === null) break;
    continuation = p.ContinuationToken;
    change(n, machineIdsOf(seen));
  }
  return seen;
}

describe('Paging while data changes', () => {
  it('neither skips nor repeats entries of a site when endpoints enrol, get infected or hidden', async () => {
    const { site } = fixture(em);
    const path = `/api/status/site/${site.key}`;
    const before = machineIdsOf((await walk(em, path, tok, { batchSize: 1000 })).entries);
    let enrolled: string[] = [];
    let hidden = '';
    const entries = await walkChanging(path, 10, (n, seen) => {
      if (n !== 0) return;
      enrolled = em.enrol(site.key, 5);
      em.endpointAction(seen[0] ?? '', 'infect', 'Trojan|Win32|Paging');
      em.endpointAction(before[before.length - 3] ?? '', 'infect');
      hidden = before[before.length - 2] ?? '';
      em.endpointAction(hidden, 'hide');
      em.endpointAction(before[20] ?? '', 'deactivate');
    });
    const ids = machineIdsOf(entries);
    expect(enrolled).toHaveLength(5);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...before, ...enrolled]);
    const hiddenEntry = entries.find((e) => e.MachineID === hidden);
    expect(hiddenEntry?.Hidden).toBe(true);
    expect(fixture(em).site.endpointCount).toBe(site.endpointCount + 5);
  });

  it('shows endpoints enrolled in a site at the end of a GSM walk in progress', async () => {
    const { gsm, small } = fixture(em);
    const path = `/api/status/gsm/${gsm.key}`;
    const before = machineIdsOf((await walk(em, path, tok, { batchSize: 1000 })).entries);
    let enrolled: string[] = [];
    const entries = await walkChanging(path, 25, (n) => {
      if (n === 1) enrolled = em.enrol(small.key, 3);
    });
    const ids = machineIdsOf(entries);
    expect(enrolled).toHaveLength(3);
    expect(ids).toEqual([...before, ...enrolled]);
    expect(fixture(em).gsm.endpointCount).toBe(gsm.endpointCount + 3);
    for (const e of entries.slice(-3)) expect(e.KC).toBe(small.key);
  });

  it('keeps a DNSP walk free of gaps and repeats while endpoints enrol', async () => {
    const { site } = fixture(em);
    const path = `/api/status/site/dnsp/${site.key}`;
    const before = machineIdsOf((await walk(em, path, tok, { batchSize: 1000 })).entries);
    const entries = await walkChanging(path, 8, (n) => {
      if (n === 0) em.enrol(site.key, 2);
    });
    const ids = machineIdsOf(entries);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.slice(0, before.length)).toEqual(before);
  });

  it('makes a newly enrolled endpoint queryable by machineId', async () => {
    const { site } = fixture(em);
    const [id] = em.enrol(site.key, 1);
    const p = await page(`/api/status/site/${site.key}`, { machineId: id });
    expect(machineIdsOf(p.QueryResults)).toEqual([id]);
  });

  it('pages changed endpoints in enrolment order, whatever order they changed in', async () => {
    const { gsm, site, small } = fixture(em);
    em.advanceClock(120);
    tok = await token(em);
    const since = em.now().toISOString();
    em.advanceClock(1);
    const ids = em.machineIds(site.key, 12);
    const changed = [ids[11], ids[6], em.machineIds(small.key, 1)[0], ids[2], ids[9]].map(String);
    changed.forEach((id, i) => {
      em.endpointAction(id, i % 2 === 0 ? 'infect' : 'touch');
    });
    const [fresh] = em.enrol(small.key, 1);
    const all = machineIdsOf(
      (await walk(em, `/api/status/gsm/${gsm.key}`, tok, { batchSize: 1000 })).entries,
    );
    const expected = all.filter((id) => changed.includes(id) || id === fresh);
    for (const batchSize of [1, 2, 4]) {
      const paged = await walk(em, `/api/status/gsm/${gsm.key}`, tok, {
        batchSize,
        modifiedSince: since,
      });
      expect(machineIdsOf(paged.entries), `batchSize ${batchSize}`).toEqual(expected);
    }
    expect(expected).toHaveLength(changed.length + 1);
  });

  // Moves the clock by a day: keep it last.
  it('rejects a continuation token older than 24 hours with 400', async () => {
    const { site } = fixture(em);
    const path = `/api/status/site/${site.key}`;
    const first = await page(path, { batchSize: 2 });
    em.advanceClock(24 * 3600 + 1);
    const fresh = await token(em);
    const res = await call(em, path, {
      token: fresh,
      query: { continuation: first.ContinuationToken ?? '' },
    });
    await expectProblem(res, 400, 'invalid_parameter', 'continuation');
  });
});
