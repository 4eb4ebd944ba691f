import { fetchSite } from '../functions/report-fetcher/tasks.js';
import { AdaptiveLimiter } from '../lib/http/index.js';
import { demoClient } from './demo-client.js';
import { startConsoleProcess } from './processes.js';

/**
 * DNSP reports (4.8) for 1,000 sites (`sites`) with 50 ms added to every call, through the report
 * fetcher's adaptive pool, against the ideal (sites / concurrency × latency) and against one
 * site after another. The emulator runs in its own process, as the real service would.
 */
export interface FanOut {
  sites: number;
  latencyMs: number;
  concurrency: number;
  wallMs: number;
  idealMs: number;
  ratio: number;
  sequentialEstimateMs: number;
  fetched: number;
  failed: number;
}

export async function fanOut(concurrency = 16, sites = 1000): Promise<FanOut> {
  const latencyMs = 50;
  const emulator = await startConsoleProcess(sites, sites * 2);
  try {
    const client = demoClient(emulator);
    const info = (await (await fetch(`${emulator.adminUrl}/info`)).json()) as {
      gsms: { sites: { key: string }[] }[];
    };
    const keys = info.gsms[0]?.sites.map((s) => s.key) ?? [];
    const tasks = keys.map((site) => ({ gsm: emulator.gsm, site, day: '2026-06-03' }));
    await fetch(`${emulator.adminUrl}/faults`, {
      method: 'PUT',
      body: JSON.stringify({
        faults: [{ operation: 'report.site.dnsp', kind: 'latency', latencyMs }],
      }),
    });
    await client.tokens.getToken();
    // One site after another, on 50 sites, extrapolated: all 1,000 would take about a minute.
    const seqStarted = performance.now();
    const sample = tasks.slice(0, 50);
    for (const task of sample) await fetchSite(client, task);
    const sequentialEstimateMs = ((performance.now() - seqStarted) / sample.length) * sites;
    const limiter = new AdaptiveLimiter({ initial: concurrency, min: 1, max: concurrency });
    const detach = limiter.attach(client);
    const started = performance.now();
    const outcomes = await Promise.allSettled(
      tasks.map((task) => limiter.run(() => fetchSite(client, task))),
    );
    const wallMs = performance.now() - started;
    detach();
    const idealMs = (sites / concurrency) * latencyMs;
    const failed = outcomes.filter((o) => o.status === 'rejected').length;
    return {
      sites,
      latencyMs,
      concurrency,
      wallMs,
      idealMs,
      ratio: wallMs / idealMs,
      sequentialEstimateMs,
      fetched: outcomes.length - failed,
      failed,
    };
  } finally {
    await emulator.stop();
  }
}
