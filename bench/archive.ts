import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createAwsClients } from '../lib/aws/index.js';
import { startMoto } from '../scripts/local/moto-server.js';
import { runWorker, startEmulatorProcess } from './processes.js';

export interface ArchiveRun {
  mode: 'discard' | 'archive' | 'collect';
  endpoints: number;
  bytes: number;
  wallMs: number;
  /** CPU time of the measuring process (its threads included: gzip runs on libuv's pool). */
  cpuMs: number;
  peakRssMb: number;
  /** Peaks of the V8 heap and of memory outside it, sampled every 100 ms. */
  peakMiB: { heapUsed: number; heapTotal: number; external: number };
  error?: string;
}

export interface ArchiveAtScale {
  runs: Record<number, ArchiveRun[]>;
  rssRatio: number;
  wallRatio: Record<number, number>;
  /** The same comparison with the service answering each page `latencyMs` later. */
  withLatency: { endpoints: number; latencyMs: number; runs: ArchiveRun[]; wallRatio: number };
}

/**
 * Archive at scale: the report fetcher's snapshot archive of a GSM of each size against the
 * same walk that discards every page, and (where it fits in memory) against collecting
 * everything first. Each run is a fresh process; the emulator and moto run on their own.
 */
export async function archiveAtScale(
  sizes: number[],
  collectUpTo: number,
  latency = { endpoints: 100_000, latencyMs: 50 },
): Promise<ArchiveAtScale> {
  const moto = await startMoto();
  const aws = createAwsClients({
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
  });
  const runs: Record<number, ArchiveRun[]> = {};
  let latencyRuns: ArchiveRun[] = [];
  try {
    for (const size of sizes) {
      const modes =
        size <= collectUpTo
          ? (['discard', 'archive', 'collect'] as const)
          : (['discard', 'archive'] as const);
      runs[size] = await measure(moto.endpoint, aws, size, modes, 0);
    }
    // The emulator shares this machine's two cores, so at scale both walks are bound by CPU and
    // nothing can hide the archive's serialising and compressing. A real service answers over a
    // network: with some latency per page, prefetching overlaps that work with the wait.
    latencyRuns = await measure(
      moto.endpoint,
      aws,
      latency.endpoints,
      ['discard', 'archive'],
      latency.latencyMs,
    );
  } finally {
    await moto.stop();
  }
  const of = (size: number, mode: ArchiveRun['mode']) => runs[size]?.find((r) => r.mode === mode);
  const smallest = Math.min(...sizes);
  const largest = Math.max(...sizes);
  const wallRatio: Record<number, number> = {};
  for (const size of sizes)
    wallRatio[size] =
      (of(size, 'archive')?.wallMs ?? Number.NaN) / (of(size, 'discard')?.wallMs ?? Number.NaN);
  return {
    runs,
    rssRatio:
      (of(largest, 'archive')?.peakRssMb ?? Number.NaN) /
      (of(smallest, 'archive')?.peakRssMb ?? Number.NaN),
    wallRatio,
    withLatency: {
      ...latency,
      runs: latencyRuns,
      wallRatio:
        (latencyRuns.find((r) => r.mode === 'archive')?.wallMs ?? Number.NaN) /
        (latencyRuns.find((r) => r.mode === 'discard')?.wallMs ?? Number.NaN),
    },
  };
}

/** One emulator of `size` endpoints (optionally slowed down), one worker process per mode. */
async function measure(
  s3Endpoint: string,
  aws: ReturnType<typeof createAwsClients>,
  size: number,
  modes: readonly ArchiveRun['mode'][],
  latencyMs: number,
): Promise<ArchiveRun[]> {
  const bucket = `bench-archive-${size}-${latencyMs}`;
  await aws.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const emulator = await startEmulatorProcess([
    '--gsms',
    '1',
    '--sites',
    String(Math.max(1, Math.round(size / 1000))),
    '--endpoints',
    String(size),
    '--now',
    '2026-06-15T12:00:00Z',
  ]);
  try {
    if (latencyMs > 0) {
      await fetch(`${emulator.adminUrl}/faults`, {
        method: 'PUT',
        body: JSON.stringify({
          faults: ['status.gsm', 'status.gsm.dnsp'].map((operation) => ({
            operation,
            kind: 'latency',
            latencyMs,
          })),
        }),
      });
    }
    const out: ArchiveRun[] = [];
    for (const mode of modes) {
      const run = await runWorker<ArchiveRun>('bench/archive-worker.ts', [
        mode,
        emulator.baseUrl,
        emulator.authUrl,
        emulator.gsm,
        s3Endpoint,
        bucket,
      ]);
      const label = latencyMs > 0 ? `${size} +${latencyMs} ms` : `${size}`;
      process.stdout.write(`  archive ${label} ${mode}: ${JSON.stringify(run)}\n`);
      out.push(run);
    }
    return out;
  } finally {
    await emulator.stop();
  }
}
