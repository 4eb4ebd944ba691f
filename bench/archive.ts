import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { createAwsClients } from '../lib/aws/index.js';
import { startMoto } from '../scripts/local/moto-server.js';
import { runWorker, startEmulatorProcess } from './processes.js';

export interface ArchiveRun {
  mode: 'discard' | 'archive' | 'collect';
  endpoints: number;
  bytes: number;
  wallMs: number;
  peakRssMb: number;
  error?: string;
}

export interface ArchiveAtScale {
  runs: Record<number, ArchiveRun[]>;
  rssRatio: number;
  wallRatio: Record<number, number>;
}

/**
 * Archive at scale: the report fetcher's snapshot archive of a GSM of each size against the
 * same walk that discards every page, and (where it fits in memory) against collecting
 * everything first. Each run is a fresh process; the emulator and moto run on their own.
 */
export async function archiveAtScale(
  sizes: number[],
  collectUpTo: number,
): Promise<ArchiveAtScale> {
  const moto = await startMoto();
  const aws = createAwsClients({
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
  });
  const runs: Record<number, ArchiveRun[]> = {};
  try {
    for (const size of sizes) {
      const bucket = `bench-archive-${size}`;
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
        const modes =
          size <= collectUpTo
            ? (['discard', 'archive', 'collect'] as const)
            : (['discard', 'archive'] as const);
        runs[size] = [];
        for (const mode of modes) {
          const run = await runWorker<ArchiveRun>('bench/archive-worker.ts', [
            mode,
            emulator.baseUrl,
            emulator.authUrl,
            emulator.gsm,
            moto.endpoint,
            bucket,
          ]);
          process.stdout.write(`  archive ${size} ${mode}: ${JSON.stringify(run)}\n`);
          runs[size].push(run);
        }
      } finally {
        await emulator.stop();
      }
    }
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
  };
}
