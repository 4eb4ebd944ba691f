import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  type Emulator,
  fixture,
  getOk,
  type Json,
  KEYCODE_RE,
  type Page,
  postToken,
  start,
  token,
  tokenPair,
  UA,
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
  tok = await token(em);
});

async function admin(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${em.adminUrl}${path}`, {
    method,
    headers: {
      'User-Agent': UA,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** The docs name what the list holds, not its wrapper: accept a bare array or one array field. */
function idList(body: unknown): string[] {
  if (Array.isArray(body)) return body as string[];
  const arrays = Object.values((body ?? {}) as Json).filter(Array.isArray);
  expect(arrays, JSON.stringify(body)).toHaveLength(1);
  return arrays[0] as string[];
}

async function entry(machineId: string): Promise<Json> {
  const p = (await getOk(em, `/api/status/site/${fx.site.key}`, {
    token: tok,
    query: { machineId },
  })) as unknown as Page;
  return p.QueryResults[0] ?? {};
}

describe('Admin API', () => {
  it('GET /__admin/info answers what info() returns, with every URL', async () => {
    const res = await admin('GET', '/info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(em.info());
    const info = res.body as Json;
    expect(info.baseUrl).toBe(em.baseUrl);
    expect(info.tokenUrl).toBe(em.tokenUrl);
    expect(info.adminUrl).toBe(em.adminUrl);
    expect(info.now).toBe(em.now().toISOString());
  });

  it('describes the dataset with well-formed, unique keys and site ids', async () => {
    const info = em.info();
    expect(info.gsms).toHaveLength(2);
    const keys = info.gsms.flatMap((g) => [g.key, ...g.sites.map((s) => s.key)]);
    for (const k of keys) expect(k).toMatch(KEYCODE_RE);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = info.gsms.flatMap((g) => g.sites.map((s) => s.id));
    for (const id of ids) expect(id).toMatch(UUID_RE);
    expect(new Set(ids).size).toBe(ids.length);
    for (const g of info.gsms) {
      expect(g.sites).toHaveLength(4);
      expect(g.sites.reduce((n, s) => n + s.endpointCount, 0)).toBe(g.endpointCount);
      for (const s of g.sites) expect(s.gsmKey).toBe(g.key);
    }
    expect(info.carts).toHaveLength(6);
    expect(info.carts.filter((c) => c.type === 'reseller')).toHaveLength(2);
  });

  it('lists the first N MachineIDs of a site in paging order', async () => {
    const res = await admin('GET', `/sites/${fx.site.key}/endpoints?limit=3`);
    expect(res.status).toBe(200);
    const ids = idList(res.body);
    expect(ids).toEqual(em.machineIds(fx.site.key, 3));
    const p = (await getOk(em, `/api/status/site/${fx.site.key}`, {
      token: tok,
      query: { batchSize: 3 },
    })) as unknown as Page;
    expect(p.QueryResults.map((e) => e.MachineID)).toEqual(ids);
  });

  it('advances the clock', async () => {
    const before = em.now().getTime();
    const res = await admin('POST', '/clock', { advanceSeconds: 120 });
    expect(res.status).toBe(200);
    expect(em.now().getTime()).toBe(before + 120_000);
  });

  it('infects and cleans an endpoint', async () => {
    const [id = ''] = em.machineIds(fx.site.key, 4).slice(3);
    expect(
      (await admin('POST', '/endpoints/infect', { machineId: id, threat: 'Rootkit|Win64|Admin' }))
        .status,
    ).toBe(200);
    expect(((await entry(id)).BasicInfo as Json).Infected).toBe(true);
    expect(((await entry(id)).ExtendedInfo as Json).LatestThreat).toBe('Rootkit|Win64|Admin');
    expect((await admin('POST', '/endpoints/clean', { machineId: id })).status).toBe(200);
    expect(((await entry(id)).BasicInfo as Json).Infected).toBe(false);
  });

  it('refuses fault rules outside the FaultRule type with 400 and keeps the rules it had', async () => {
    expect((await admin('DELETE', '/faults')).status).toBe(200);
    for (const rule of [
      { kind: 'explode' },
      { kind: 'status', status: 418 },
      { kind: 'status', status: 503, operation: 'status.nowhere' },
      { kind: 'latency', probability: 2 },
    ]) {
      const res = await admin('PUT', '/faults', { faults: [rule] });
      expect(res.status, JSON.stringify(rule)).toBe(400);
    }
    const ok = await call(em, `/api/status/gsm/${fx.gsm.key}`, {
      token: tok,
      query: { batchSize: 1 },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a negative blocked-URL count, so counts never drop below zero', async () => {
    const day = new Date(em.now().getTime() - 2 * 86_400_000).toISOString().slice(0, 10);
    const res = await admin('POST', '/blocked-urls', {
      siteId: fx.small.id,
      date: day,
      count: -1_000_000,
    });
    expect(res.status).toBe(400);
    const path = `/api/console/gsm/${fx.gsm.key}/sites/${fx.small.id}/blockedurls/counts`;
    const body = await getOk(em, path, { token: tok });
    for (const d of body.DatedCounts as { Count: number }[])
      expect(d.Count).toBeGreaterThanOrEqual(0);
  });

  it('refuses a negative enrol count', async () => {
    const res = await admin('POST', `/sites/${fx.site.key}/enrol`, { count: -2 });
    expect(res.status).toBe(400);
  });

  it('rejects an unknown action or MachineID with a 4xx', async () => {
    const [id = ''] = em.machineIds(fx.site.key, 1);
    const bad = await admin('POST', '/endpoints/explode', { machineId: id });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    const unknown = await admin('POST', '/endpoints/hide', { machineId: 'AAAA:::BBBB:::CCCC' });
    expect(unknown.status).toBeGreaterThanOrEqual(400);
    expect(unknown.status).toBeLessThan(500);
  });

  it('enrols endpoints and answers their MachineIDs', async () => {
    const res = await admin('POST', `/sites/${fx.site.key}/enrol`, { count: 2 });
    expect(res.status).toBe(200);
    const ids = idList(res.body);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect((await entry(id)).MachineID).toBe(id);
  });

  it('keeps the FirstSeen of an enrolled endpoint when it changes later', async () => {
    const [id = ''] = idList(
      (await admin('POST', `/sites/${fx.site.key}/enrol`, { count: 1 })).body,
    );
    const enrolled = await entry(id);
    expect(enrolled.FirstSeen).toBe(enrolled.LastChanged);
    // Less than the token's lifetime, so the token of this test stays valid.
    await admin('POST', '/clock', { advanceSeconds: 60 });
    await admin('POST', '/endpoints/infect', { machineId: id, threat: 'Rootkit|Win64|Admin' });
    const infected = await entry(id);
    expect(infected.LastChanged).not.toBe(enrolled.LastChanged);
    expect(infected.FirstSeen).toBe(enrolled.FirstSeen);
  });

  it('adds blocked-URL actions to a day', async () => {
    const day = new Date(em.now().getTime() - 3 * 86_400_000).toISOString().slice(0, 10);
    const path = `/api/console/gsm/${fx.gsm.key}/sites/${fx.site.id}/blockedurls/counts`;
    const countOn = async () => {
      const body = await getOk(em, path, { token: tok });
      return (
        (body.DatedCounts as { Date: string; Count: number }[]).find((d) => d.Date.startsWith(day))
          ?.Count ?? -1
      );
    };
    const before = await countOn();
    expect(
      (await admin('POST', '/blocked-urls', { siteId: fx.site.id, date: day, count: 777 })).status,
    ).toBe(200);
    expect(await countOn()).toBe(before + 777);
  });

  it('revokes every access and refresh token', async () => {
    const pair = await tokenPair(em, ['SkyStatus.GSM']);
    expect((await admin('POST', '/tokens/revoke')).status).toBe(200);
    const res = await call(em, `/api/status/gsm/${fx.gsm.key}`, { token: tok });
    expect(res.status).toBe(401);
    const refreshed = await postToken(em, {
      grant_type: 'refresh_token',
      refresh_token: pair.refresh,
    });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe('invalid_grant');
  });

  it('lists 10 MachineIDs when no limit is given', async () => {
    const res = await admin('GET', `/sites/${fx.site.key}/endpoints`);
    expect(res.status).toBe(200);
    expect(idList(res.body)).toEqual(em.machineIds(fx.site.key, 10));
    expect(idList(res.body)).toHaveLength(Math.min(10, fx.site.endpointCount));
  });

  it('replaces and removes fault rules, and never faults itself', async () => {
    const put = await admin('PUT', '/faults', {
      faults: [{ operation: '*', kind: 'status', status: 503 }],
    });
    expect(put.status).toBe(200);
    const res = await call(em, `/api/status/gsm/${fx.gsm.key}`, { token: tok });
    expect(res.status).toBe(503);
    expect((await admin('GET', '/info')).status).toBe(200);
    expect((await admin('DELETE', '/faults')).status).toBe(200);
    const ok = await call(em, `/api/status/gsm/${fx.gsm.key}`, {
      token: tok,
      query: { batchSize: 1 },
    });
    expect(ok.status).toBe(200);
  });

  it('reports and resets stats', async () => {
    await admin('POST', '/stats/reset');
    await call(em, `/api/status/gsm/${fx.gsm.key}`, { token: tok, query: { batchSize: 1 } });
    const stats = await admin('GET', '/stats');
    expect(stats.status).toBe(200);
    expect((stats.body as Json).byOperation).toMatchObject({ 'status.gsm': 1 });
    await admin('POST', '/stats/reset');
    expect(em.stats().byOperation['status.gsm'] ?? 0).toBe(0);
  });
});
