import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { fetchSite } from '../functions/report-fetcher/archive-site.js';
import { JobStore } from '../functions/report-fetcher/job-store.js';
import { newJob } from '../functions/report-fetcher/plan.js';
import { runJob } from '../functions/report-fetcher/run-job.js';
import { createAwsClients, ReportStore, StateStore } from '../lib/aws/index.js';
import { AdaptiveLimiter } from '../lib/http/index.js';
import { SkywatchClient } from '../lib/index.js';
import { startMoto } from '../scripts/local/moto-server.js';
import { startEmulatorProcess } from './processes.js';

/**
 * DNSP reports (4.8) for 1,000 sites with 50 ms added to every call: the report fetcher's
 * adaptive pool against the ideal (sites / concurrency × latency) and against one site after
 * another. The emulator and moto run in their own processes, as the real service and S3 would.
 */
export interface FanOut {
  sites: number;
  latencyMs: number;
  concurrency: number;
  /** The service calls alone, through the same bounded pool: what the target is about. */
  wallMs: number;
  /** Calls plus writes to local S3 (moto, far slower than S3 under concurrency). */
  endToEndMs: number;
  idealMs: number;
  ratio: number;
  sequentialEstimateMs: number;
  archived: number;
  failed: number;
}

export async function fanOut(concurrency = 16): Promise<FanOut> {
  const sites = 1000;
  const latencyMs = 50;
  const moto = await startMoto();
  const emulator = await startEmulatorProcess([
    '--gsms',
    '1',
    '--sites',
    String(sites),
    '--endpoints',
    String(sites * 2),
    '--now',
    '2026-06-15T12:00:00Z',
  ]);
  try {
    const aws = createAwsClients({
      endpoint: moto.endpoint,
      credentials: { accessKeyId: 't', secretAccessKey: 't' },
    });
    await aws.s3.send(new CreateBucketCommand({ Bucket: 'bench-fan-out' }));
    const client = new SkywatchClient({
      baseUrl: emulator.baseUrl,
      authUrl: emulator.authUrl,
      auth: {
        clientId: 'skywatch-demo',
        clientSecret: 'demo-client-secret',
        username: 'ops@example.com',
        password: 'demo-password',
      },
    });
    const store = new ReportStore(aws.s3, 'bench-fan-out');
    const deps = {
      client,
      s3: aws.s3,
      bucket: 'bench-fan-out',
      store,
      jobs: new JobStore(new StateStore(aws.s3, 'bench-fan-out')),
      manifests: new StateStore(aws.s3, 'bench-fan-out', ''),
    };
    const info = (await (await fetch(`${emulator.adminUrl}/info`)).json()) as {
      gsms: { sites: { key: string }[] }[];
    };
    const keys = info.gsms[0]?.sites.map((s) => s.key) ?? [];
    const tasks = (day: string) => keys.map((site) => ({ gsm: emulator.gsm, site, day }));
    await fetch(`${emulator.adminUrl}/faults`, {
      method: 'PUT',
      body: JSON.stringify({
        faults: [{ operation: 'report.site.dnsp', kind: 'latency', latencyMs }],
      }),
    });
    await client.tokens.getToken();
    const limits = { initial: concurrency, min: 1, max: concurrency };
    // One site after another, on 50 sites, extrapolated: all 1,000 would take about a minute.
    const seqStarted = performance.now();
    for (const task of tasks('2026-06-01').slice(0, 50)) await fetchSite(client, task);
    const sequentialEstimateMs = ((performance.now() - seqStarted) / 50) * sites;
    const limiter = new AdaptiveLimiter(limits);
    const detach = limiter.attach(client);
    const started = performance.now();
    await Promise.all(
      tasks('2026-06-03').map((task) => limiter.run(() => fetchSite(client, task))),
    );
    const wallMs = performance.now() - started;
    detach();
    // The whole day's job: the same calls, plus each report written to local S3.
    const held = await deps.jobs.create(
      newJob({
        gsm: emulator.gsm,
        day: '2026-06-02',
        snapshotDate: null,
        sites: keys.map((key) => ({ key, id: key, name: key, endpoints: 2 })),
        unidentified: 0,
        reports: [],
        owner: 'bench',
        now: Date.now(),
        settings: { siteWalkAbove: 0 },
      }),
    );
    if (!held) throw new Error('the job exists already');
    const e2eStarted = performance.now();
    const outcome = await runJob(deps, held, {
      concurrency: limits,
      gzipLevel: 2,
      maxTaskAttempts: 3,
      saveEveryMs: 60_000,
      pauseAt: Number.POSITIVE_INFINITY,
    });
    const endToEndMs = performance.now() - e2eStarted;
    const idealMs = (sites / concurrency) * latencyMs;
    return {
      sites,
      latencyMs,
      concurrency,
      wallMs,
      endToEndMs,
      idealMs,
      ratio: wallMs / idealMs,
      sequentialEstimateMs,
      archived: outcome.manifest?.sites.archived ?? 0,
      failed: outcome.manifest?.sites.failed.length ?? sites,
    };
  } finally {
    await emulator.stop();
    await moto.stop();
  }
}
