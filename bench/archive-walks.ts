import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { createAwsClients } from '../lib/aws/index.js';
import type { ArchiveRun, Heap, Mode, WalkStart } from './archive-results.js';
import { DEPLOYED_NODE_FLAGS } from './bundle.js';
import type { NullS3 } from './null-s3.js';
import { processCpuMs } from './process-cpu.js';
import { runWorker, startEmulatorProcess } from './processes.js';

/** One walk to make: what it does with the pages, on which heap, at which gzip level. */
export interface Job {
  mode: Mode;
  heap: Heap;
  /** gzip level of an archive job; the store's default when unset. */
  gzipLevel?: number;
  /** How the walk starts; `after-reports`, as the report fetcher reaches its snapshots, when unset. */
  start?: WalkStart;
}

/** How a walk's process is started: the runtime's flags, through the stack's wrapper or not. */
export interface HeapLaunch {
  runtimeFlags: string[];
  wrapper: { path: string; env: Record<string, string> } | undefined;
}

/** One emulator of `size` endpoints (optionally slowed down), one worker process per job. */
export async function measureWalks(
  s3: {
    endpoint: string;
    pid: number | undefined;
    aws: ReturnType<typeof createAwsClients>;
    nullS3: NullS3;
  },
  /** The archive worker's bundle and the Node.js binary it runs on. */
  worker: { bundle: string; node: string },
  size: number,
  jobs: Job[],
  latencyMs: number,
  heaps: HeapLaunch,
): Promise<ArchiveRun[]> {
  const bucket = `bench-archive-${size}-${latencyMs}`;
  await s3.aws.s3.send(new CreateBucketCommand({ Bucket: bucket }));
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
  const args = [emulator.baseUrl, emulator.authUrl, emulator.gsm, s3.endpoint, bucket];
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
    // The first walk after the emulator starts pays for its JIT warming up (twice the CPU per
    // page); a short unmeasured walk keeps that out of whichever mode happens to run first.
    await runWorker(worker.bundle, ['warm', 'cold', ...args], DEPLOYED_NODE_FLAGS, worker.node);
    const out: ArchiveRun[] = [];
    for (const job of jobs) {
      const cpuBefore = [processCpuMs(emulator.pid), processCpuMs(s3.pid)];
      const toNullS3 = job.mode === 'archive-null-s3';
      const receivedBefore = s3.nullS3.bytesReceived();
      const walkArgs = toNullS3 ? args.with(3, s3.nullS3.endpoint) : args;
      const walk = await runWorker<ArchiveRun>(
        worker.bundle,
        [
          job.mode,
          job.start ?? 'after-reports',
          ...walkArgs,
          ...(job.gzipLevel === undefined ? [] : [String(job.gzipLevel)]),
        ],
        [...DEPLOYED_NODE_FLAGS, ...heaps.runtimeFlags],
        worker.node,
        job.heap === 'deployed' ? heaps.wrapper : undefined,
      );
      const run: ArchiveRun = {
        ...walk,
        heap: job.heap,
        serviceCpuMs: processCpuMs(emulator.pid) - (cpuBefore[0] ?? Number.NaN),
        s3CpuMs: processCpuMs(s3.pid) - (cpuBefore[1] ?? Number.NaN),
        // What the snapshots sent: the usage reports the walk stored before its clock started
        // went to the null S3 too.
        ...(toNullS3
          ? {
              nullS3BytesReceived:
                s3.nullS3.bytesReceived() - receivedBefore - (walk.reportBytes ?? 0),
            }
          : {}),
      };
      const label = `${size}${latencyMs > 0 ? ` +${latencyMs} ms` : ''}, ${run.heap} heap (${run.heapFlags.join(' ')})${run.gzipLevel === undefined ? '' : `, gzip ${run.gzipLevel}`}, ${run.start}`;
      process.stdout.write(`  archive ${label} ${job.mode}: ${JSON.stringify(run)}\n`);
      out.push(run);
    }
    return out;
  } finally {
    await emulator.stop();
  }
}
