import { request } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Speed of a full 1,000-entry agent-status page (docs/emulator.md, Speed):
 *   npx tsx scripts/emulator-speed.ts [runs] [emulator-dir]
 * It times, for the emulator in `emulator-dir` (default ./emulator; an older checkout's to
 * compare), the route handler plus the UTF-8 encoding of the body, and a full HTTP round trip
 * over a kept-alive connection, rotating through consecutive pages of a GSM of 1,000,000
 * endpoints. It also times 4.9 (blocked-URL counts, default 7-day window) of a site of
 * ~125,000 endpoints with nothing cached: each run starts its clock on another day.
 * To compare two checkouts under the same load, run them alternately, each in its own process
 * (in one process they would share, and disturb, one garbage-collected heap).
 */

const runs = Number(process.argv[2] ?? 200);
const dirs = [process.argv[3] ?? 'emulator'];
const OPTIONS = { seed: 1, gsmCount: 1, sitesPerGsm: 8, endpointsPerGsm: 1_000_000 };
const NOW = '2026-06-15T12:00:00Z';

interface Target {
  dir: string;
  render: (page: number) => number;
  counts: (run: number) => number;
  http: (page: number) => Promise<number>;
  close: () => Promise<void>;
  renderMs: number[];
  httpMs: number[];
  countsMs: number[];
}

async function load(dir: string): Promise<Target> {
  const mod = (path: string) => import(pathToFileURL(resolve(dir, path)).href);
  const { startEmulator } = await mod('index.ts');
  const { resolveOptions } = await mod('options.ts');
  const { createState } = await mod('state.ts');
  const { ROUTES } = await mod('routes/table.ts');
  const { Query } = await mod('http/params.ts');
  const { encodeContinuation, queryDigest } = await mod('routes/paging.ts');

  // In-process: the handler a request reaches, without sockets.
  const state = createState(resolveOptions({ ...OPTIONS, now: NOW }), 'http://127.0.0.1:1');
  const gsm = state.data.gsms[0];
  const route = ROUTES.find((r: { operation: string }) => r.operation === 'status.gsm');
  const path = `/service/api/status/gsm/${gsm.key}`;
  // The digest a full-page query of this GSM has, so continuation tokens for any page can be made.
  const groups =
    'BasicInfo,ExtendedInfo,TimesAndStats,Scheduling,EnabledFeatures,SystemAnalyzer,OSAndVersions';
  const digest = queryDigest([path, gsm.key, undefined, '', groups]);
  const pageUrl = (page: number) => {
    const url = new URL(`http://127.0.0.1:1${path}?batchSize=1000`);
    if (page > 0) {
      url.searchParams.set(
        'continuation',
        encodeContinuation(state.pagingKey, digest, page * 1000, state.clock.now()),
      );
    }
    return url;
  };
  const render = (page: number) => {
    const url = pageUrl(page);
    const t0 = performance.now();
    const reply = route.handle({
      state,
      params: [gsm.key],
      query: new Query(url.searchParams, route.query),
      url,
      search: url.searchParams,
      xml: false,
      headers: {},
      body: '',
    });
    const bytes = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body;
    const ms = performance.now() - t0;
    if (reply.status !== 200 || bytes.length < 2_000_000) throw new Error(`${dir}: bad page`);
    return ms;
  };

  // 4.9 in-process, cold: a fresh state whose clock starts `run` days later has no day cached.
  const blocked = ROUTES.find((r: { operation: string }) => r.operation === 'blockedUrls');
  const counts = (run: number) => {
    const now = new Date(Date.parse(NOW) + run * 86_400_000).toISOString();
    const fresh = createState(resolveOptions({ ...OPTIONS, now }), 'http://127.0.0.1:1');
    const site = fresh.data.gsms[0].sites[0];
    const url = new URL(
      `http://127.0.0.1:1/service/api/console/gsm/${gsm.key}/sites/${site.id}/blockedurls/counts`,
    );
    const t0 = performance.now();
    const reply = blocked.handle({
      state: fresh,
      params: [gsm.key, site.id],
      query: new Query(url.searchParams, blocked.query),
      url,
      search: url.searchParams,
      xml: false,
      headers: {},
      body: '',
    });
    const ms = performance.now() - t0;
    if (reply.status !== 200) throw new Error(`${dir}: 4.9 answered ${reply.status}`);
    return ms;
  };

  // Over HTTP: a real emulator, a kept-alive connection, the body read in full.
  const em = await startEmulator({ ...OPTIONS, now: NOW });
  const basic = Buffer.from('skywatch-demo:demo-client-secret').toString('base64');
  const tokenRes = await fetch(em.tokenUrl, {
    method: 'POST',
    headers: {
      authorization: `Basic ${basic}`,
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': 'speed',
    },
    body: 'grant_type=password&username=ops%40example.com&password=demo-password&scope=SkyStatus.GSM',
  });
  const { access_token: token } = (await tokenRes.json()) as { access_token: string };
  const { Agent } = await import('node:http');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const first = await fetch(`${em.baseUrl}/api/status/gsm/${gsm.key}?batchSize=1000`, {
    headers: { authorization: `Bearer ${token}`, 'user-agent': 'speed' },
  });
  const firstPage = (await first.json()) as { ContinuationToken: string };
  const http = (page: number) =>
    new Promise<number>((done, fail) => {
      const url = `${em.baseUrl}/api/status/gsm/${gsm.key}?batchSize=1000${page % 2 ? `&continuation=${firstPage.ContinuationToken}` : ''}`;
      const t0 = performance.now();
      const req = request(
        url,
        { agent, headers: { authorization: `Bearer ${token}`, 'user-agent': 'speed' } },
        (res) => {
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
          });
          res.on('end', () => {
            if (res.statusCode !== 200 || size < 2_000_000)
              fail(new Error(`${dir}: HTTP ${res.statusCode}`));
            else done(performance.now() - t0);
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
  return {
    dir,
    render,
    counts,
    http,
    close: async () => {
      agent.destroy();
      await em.close();
    },
    renderMs: [],
    httpMs: [],
    countsMs: [],
  };
}

function summary(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0).toFixed(1);
  return `min ${at(0)} / median ${at(0.5)} / p90 ${at(0.9)} ms`;
}

const targets: Target[] = [];
for (const dir of dirs) targets.push(await load(dir));
for (let warm = 0; warm < 20; warm++) {
  for (const t of targets) {
    t.render(warm % 50);
    await t.http(warm);
  }
}
for (let i = 0; i < runs; i++) {
  for (const t of targets) {
    t.renderMs.push(t.render(i % 50));
    t.httpMs.push(await t.http(i));
    if (i % 5 === 0) t.countsMs.push(t.counts(i));
  }
}
for (const t of targets) {
  console.log(
    `${t.dir}\n  handler + encoding  ${summary(t.renderMs)}\n  HTTP round trip     ${summary(t.httpMs)}` +
      `\n  4.9 cold, 7 days    ${summary(t.countsMs)}`,
  );
  await t.close();
}
