import { type MotoServer, startMoto } from '../scripts/local/moto-server.js';
import { archiveWorkerBundle, DEPLOYED_NODE_FLAGS } from './bundle.js';
import type { ArchivedDay } from './day-job.js';
import { type EmulatorProcess, runWorker, startConsoleProcess } from './processes.js';

/**
 * The realistic-latency run: a console of a million endpoints over 1,000 sites whose every
 * status page is answered after `latencyMs` (the emulator's latency fault), archived site by
 * site in invocations far shorter than a Lambda's, so walks must stop and go on. Compared with
 * the ideal (pages × latency ÷ concurrency) and with downloading the same pages at the same
 * settings.
 */
export interface LatencyRun {
  endpoints: number;
  sites: number;
  latencyMs: number;
  concurrency: number;
  invocationMs: number;
  /** What the archive worker printed of the day's walks (bench/day-job.ts), with its cost. */
  archive: ArchivedDay & { wallMs: number; peakRssMb: number };
  download: { wallMs: number; pages: number };
  tokenCalls: number;
  idealMs: number;
  ratio: number;
}

/** The smoke test (test/scripts/bench.test.ts) makes the console tiny. */
const ENDPOINTS = Number(process.env.BENCH_LATENCY_ENDPOINTS ?? 1_000_000);
const SITES = Number(process.env.BENCH_LATENCY_SITES ?? 1_000);
export const LATENCY_TARGET = 1.25;

type Settings = Pick<LatencyRun, 'latencyMs' | 'concurrency' | 'invocationMs'>;

/** The runs one after another on one console (of a million endpoints: built once) and moto. */
export async function latencyRuns(runs: readonly Settings[]): Promise<LatencyRun[]> {
  const worker = archiveWorkerBundle();
  const moto = await startMoto();
  const emulator = await startConsoleProcess(SITES, ENDPOINTS).catch(async (error: unknown) => {
    await moto.stop();
    throw error;
  });
  try {
    const done: LatencyRun[] = [];
    for (const run of runs) done.push(await latencyRun(run, worker, moto, emulator));
    return done;
  } finally {
    await Promise.all([emulator.stop(), moto.stop()]);
  }
}

async function latencyRun(
  run: Settings,
  worker: string,
  moto: MotoServer,
  emulator: EmulatorProcess,
): Promise<LatencyRun> {
  const { latencyMs, concurrency, invocationMs } = run;
  const admin = (path: string, body?: unknown) =>
    fetch(`${emulator.adminUrl}${path}`, {
      method: body === undefined ? 'GET' : path === '/faults' ? 'PUT' : 'POST',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
  await admin('/faults', {
    faults: ['status.site', 'status.site.dnsp'].map((operation) => ({
      operation,
      kind: 'latency',
      latencyMs,
    })),
  });
  // The archive worker's arguments: the walks of the job, in invocations of invocationMs.
  const args = (mode: string, bucket: string) => [
    mode,
    emulator.baseUrl,
    emulator.authUrl,
    emulator.gsm,
    moto.endpoint,
    bucket,
    String(concurrency),
    String(invocationMs),
    // Site by site whatever the console's size, as a large console is walked.
    '0',
  ];
  const download = await runWorker<LatencyRun['download']>(
    worker,
    args('discard', `bench-latency-d-${latencyMs}`),
    DEPLOYED_NODE_FLAGS,
  );
  await admin('/stats/reset', {});
  const archive = await runWorker<LatencyRun['archive']>(
    worker,
    args('archive', `bench-latency-a-${latencyMs}`),
    DEPLOYED_NODE_FLAGS,
  );
  const stats = (await admin('/stats')) as { tokenGrants: Record<string, number> };
  const tokenCalls = Object.values(stats.tokenGrants).reduce((a, b) => a + b, 0);
  const idealMs = (archive.pages * latencyMs) / concurrency;
  return {
    ...run,
    endpoints: ENDPOINTS,
    sites: SITES,
    archive,
    download,
    tokenCalls,
    idealMs,
    ratio: archive.wallMs / Math.max(idealMs, download.wallMs),
  };
}

/** The run's verdict: every walk done, no invocation past its timeout, wall near the bound. */
export function latencyMet(run: LatencyRun): boolean {
  return (
    run.archive.complete &&
    run.archive.longestInvocationMs <= run.invocationMs &&
    run.ratio <= LATENCY_TARGET
  );
}
