import { availableParallelism } from 'node:os';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { SEMI_SPACE_WRAPPER } from '../infra/bundling.js';
import { DEFAULT_SETTINGS } from '../infra/config/settings.js';
import { REPORT_FETCHER_MEMORY_MB } from '../infra/function-memory.js';
import { createAwsClients, DEFAULT_GZIP_LEVEL } from '../lib/aws/index.js';
import { startMoto } from '../scripts/local/moto-server.js';
import { benchBundlePath, bundleLikeTheStack, DEPLOYED_NODE_FLAGS } from './bundle.js';
import { lambdaHeapFlags } from './lambda-heap.js';
import { medianOf, medianPeakRss, medianRun } from './medians.js';
import { type NullS3, startNullS3 } from './null-s3.js';
import { processCpuMs } from './process-cpu.js';
import { runWorker, startEmulatorProcess } from './processes.js';

/**
 * What a walk does with the pages (archive-worker.ts): `slice` and `archive-null-s3` are the
 * archive's stages, to say where its time goes.
 */
type Mode = 'discard' | 'slice' | 'archive-null-s3' | 'archive' | 'collect';
/**
 * The heap the deployed report fetcher starts with (the Lambda runtime's flags, its young
 * generation set by the stack's semi-space wrapper), or the runtime's flags alone: what the
 * wrapper buys.
 */
type Heap = 'deployed' | 'runtime';

export interface ArchiveRun {
  mode: Mode;
  endpoints: number;
  /** Compressed bytes of both snapshots (NDJSON bytes for `slice`). */
  bytes: number;
  /** Bytes the null S3 endpoint received in an `archive-null-s3` walk: all of `bytes`, or not. */
  nullS3BytesReceived?: number;
  wallMs: number;
  /** CPU time of the walk in the measuring process (its threads included: gzip runs on libuv's pool). */
  cpuMs: number;
  /** Share of the walk's wall time the main thread was busy (event-loop utilisation). */
  mainThreadBusy: number;
  /** CPU time the emulator and moto spent meanwhile (they share this machine's cores). */
  serviceCpuMs: number;
  s3CpuMs: number;
  peakRssMb: number;
  /** Peaks of the V8 heap and of memory outside it, sampled every 100 ms. */
  peakMiB: { heapUsed: number; heapTotal: number; external: number };
  /** The largest RSS sampled in each tenth of the walk (null: no sample fell in it). */
  rssByTenthMiB: (number | null)[];
  /**
   * The young generation (new space) V8 committed at its largest, sampled every 100 ms: V8
   * grows it while objects survive scavenges, up to what the heap flags allow, and keeps it.
   */
  youngGeneration: { peakMiB: number };
  /** The gzip level of an archive or collect run. */
  gzipLevel?: number;
  /** Which V8 heap the measuring process had, its limit and the flags it was started with. */
  heap: Heap;
  heapLimitMb: number;
  heapFlags: string[];
}

/**
 * Archive against download-only, size by size, with one V8 heap configuration. A size walked
 * more than once (every size, by default) is compared by medians.
 */
export interface ArchiveComparison {
  runs: Record<number, ArchiveRun[]>;
  /** Median archive wall time over median download-only wall time. */
  wallRatio: Record<number, number>;
  /**
   * The smallest wall ratio this machine allows: all the CPU the archive run took (walk,
   * emulator, moto) spread perfectly over every core, against the download-only wall time.
   */
  cpuFloorRatio: Record<number, number>;
  /** Median peak RSS of the largest archive over that of the smallest. */
  rssRatio: number;
  /**
   * Peak RSS of the largest archive over that of the next size down: how memory grows once V8's
   * young generation has reached its limit in both (NaN with one size).
   */
  rssRatioToNextSize: number;
}

export interface ArchiveAtScale extends ArchiveComparison {
  /**
   * The heap every headline run had: the flags the Lambda runtime starts the report fetcher
   * with, its semi-space then set by the stack's exec wrapper (none when semiSpaceMb is 0).
   */
  heap: {
    memoryMb: number;
    flags: string[];
    source: 'lambda-runtime' | 'BENCH_ARCHIVE_NODE_FLAGS';
    semiSpaceMb: number;
    semiSpaceSource: 'stack-default' | 'BENCH_SEMI_SPACE_MB';
  };
  /**
   * What every walk ran: the worker bundled as the stack bundles a function, started with the
   * stack's NODE_OPTIONS (and the heap flags above), not TypeScript through a loader.
   */
  worker: { bundle: string; nodeOptions: string[] };
  /** The same walks with the runtime's flags alone, no wrapper: what the wrapper buys. */
  runtimeHeap: ArchiveComparison;
  /**
   * Where the archive's time goes, size by size (not the largest: a minute a walk), each stage
   * walked as often as the headline modes, alternating with them, compared by medians.
   */
  byStage: Record<number, ArchiveStages>;
  /** The same comparison with the service answering each page `latencyMs` later. */
  withLatency: { endpoints: number; latencyMs: number; runs: ArchiveRun[]; wallRatio: number };
  /**
   * The archive again at another gzip level (the one used before the default changed), size by
   * size: what the default level trades, time against bytes.
   */
  otherGzipLevel: {
    level: number;
    defaultLevel: number;
    bySize: Record<number, { wallRatio: number; bytes: number; defaultBytes: number }>;
  };
}

/** Median wall time and CPU of each stage, each stage doing what the one before it does and more. */
export interface ArchiveStages {
  /** Wall time over download-only's: the slice, the archive to a null S3, the archive to moto. */
  wallRatio: { slice: number; nullS3: number; archive: number };
  /** The walk's own CPU (its threads included) over download-only's, the same stages. */
  cpuRatio: { slice: number; nullS3: number; archive: number };
  /** CPU moto spent storing the archive (median of the archive walks), on the walk's cores. */
  motoCpuMs: number;
}

/** The level archive runs are compared with: zlib's 4, the store's default until level 2. */
const OTHER_GZIP_LEVEL = 4;
/**
 * Walks of the smallest size, each mode: a 10,000-endpoint walk lasts under a second, and its
 * peak RSS depends on whether V8 grew its young generation in that time (64 or 128 MiB
 * committed; 188-248 MB peaks measured over 12 walks), so one walk is a coin toss.
 */
const SMALLEST_SIZE_WALKS = Number(process.env.BENCH_SMALL_WALKS ?? 7);
/**
 * Walks of each size between the smallest and the largest (100,000 by default, 5–7 s a walk): a
 * single walk met a busy moment of this shared machine once (1.40 × download-only, the CPU of
 * the walk, emulator and moto more than both cores could give in the time), so they are
 * compared by medians too.
 */
const MIDDLE_SIZE_WALKS = Number(process.env.BENCH_MIDDLE_WALKS ?? 3);
/**
 * Walks of the largest size (1,000,000 by default, 40–50 s a walk), where the issue states both
 * archive targets. One walk a mode gave 1.18, 1.19, 1.36 and 1.254 × download-only in four runs
 * of the same code: the figure the target is checked on was the run's least steady one.
 */
const LARGEST_SIZE_WALKS = Number(process.env.BENCH_LARGE_WALKS ?? 3);

interface Job {
  mode: Mode;
  heap: Heap;
  /** gzip level of an archive job; the store's default when unset. */
  gzipLevel?: number;
}

/**
 * Archive at scale: the report fetcher's snapshot archive of a GSM of each size against the
 * same walk that discards every page, and (where it fits in memory) against collecting
 * everything first. Each run is a fresh process, with the V8 heap of the deployed function;
 * the emulator and moto run on their own.
 */
export async function archiveAtScale(
  /** The Node.js binary every walk runs on (the deployed major: measured-node.ts). */
  node: string,
  sizes: number[],
  collectUpTo: number,
  latency = { endpoints: 100_000, latencyMs: 50 },
): Promise<ArchiveAtScale> {
  // BENCH_ARCHIVE_NODE_FLAGS replaces the runtime's flags, to measure another heap assumption.
  const override = process.env.BENCH_ARCHIVE_NODE_FLAGS?.split(' ').filter(Boolean);
  const flags = override ?? lambdaHeapFlags(REPORT_FETCHER_MEMORY_MB);
  // The young generation the stack gives the functions that archive; BENCH_SEMI_SPACE_MB
  // measures another (0: the runtime's own, no wrapper).
  const semiSpaceOverride = process.env.BENCH_SEMI_SPACE_MB;
  const semiSpaceMb = Number(semiSpaceOverride ?? DEFAULT_SETTINGS.archiveSemiSpaceMb);
  if (!Number.isInteger(semiSpaceMb) || semiSpaceMb < 0 || semiSpaceMb > 64) {
    throw new Error(
      `BENCH_SEMI_SPACE_MB must be a whole number of MB from 0 to 64; got ${semiSpaceOverride}`,
    );
  }
  const heaps: HeapLaunch = {
    runtimeFlags: flags,
    wrapper:
      semiSpaceMb > 0
        ? {
            path: SEMI_SPACE_WRAPPER.source,
            env: { [SEMI_SPACE_WRAPPER.sizeVariable]: String(semiSpaceMb) },
          }
        : undefined,
  };
  // The walks run a bundle, as the Lambda does: through tsx, its loader thread and the modules
  // it compiles added 40 MB to a 10,000-endpoint walk's peak RSS and 20 MB to a million's.
  const bundle = benchBundlePath('archive-worker.mjs');
  await bundleLikeTheStack('bench/archive-worker.ts', bundle);
  const worker = { bundle, node };
  const moto = await startMoto();
  const nullS3 = await startNullS3();
  const aws = createAwsClients({
    endpoint: moto.endpoint,
    credentials: { accessKeyId: 't', secretAccessKey: 't' },
  });
  const runs: Record<number, ArchiveRun[]> = {};
  const runtimeRuns: Record<number, ArchiveRun[]> = {};
  const otherLevelRuns: Record<number, ArchiveRun[]> = {};
  let latencyRuns: ArchiveRun[] = [];
  const s3 = { endpoint: moto.endpoint, pid: moto.pid, aws, nullS3 };
  const [smallest, largest] = [Math.min(...sizes), Math.max(...sizes)];
  try {
    for (const size of sizes) {
      const walks =
        size === smallest
          ? SMALLEST_SIZE_WALKS
          : size === largest
            ? LARGEST_SIZE_WALKS
            : MIDDLE_SIZE_WALKS;
      const stages: Job[] =
        size === largest
          ? []
          : [
              { mode: 'slice', heap: 'deployed' },
              { mode: 'archive-null-s3', heap: 'deployed' },
            ];
      const jobs: Job[] = [
        ...Array.from({ length: walks }, (): Job[] => [
          { mode: 'discard', heap: 'deployed' },
          ...stages,
          { mode: 'archive', heap: 'deployed' },
        ]).flat(),
        ...(size <= collectUpTo ? [{ mode: 'collect', heap: 'deployed' } as const] : []),
        { mode: 'archive', heap: 'deployed', gzipLevel: OTHER_GZIP_LEVEL },
        { mode: 'discard', heap: 'runtime' },
        { mode: 'archive', heap: 'runtime' },
      ];
      const done = await measure(s3, worker, size, jobs, 0, heaps);
      const atDefaultLevel = (r: ArchiveRun) =>
        r.gzipLevel === undefined || r.gzipLevel === DEFAULT_GZIP_LEVEL;
      runs[size] = done.filter((r) => r.heap === 'deployed' && atDefaultLevel(r));
      runtimeRuns[size] = done.filter((r) => r.heap === 'runtime');
      otherLevelRuns[size] = done.filter((r) => r.gzipLevel === OTHER_GZIP_LEVEL);
    }
    // With some latency per page, as from a service across a network, prefetching overlaps the
    // archive's work with the wait.
    latencyRuns = await measure(
      s3,
      worker,
      latency.endpoints,
      [
        { mode: 'discard', heap: 'deployed' },
        { mode: 'archive', heap: 'deployed' },
      ],
      latency.latencyMs,
      heaps,
    );
  } finally {
    await Promise.all([moto.stop(), nullS3.stop()]);
  }
  return {
    heap: {
      memoryMb: REPORT_FETCHER_MEMORY_MB,
      flags,
      source: override ? 'BENCH_ARCHIVE_NODE_FLAGS' : 'lambda-runtime',
      semiSpaceMb,
      semiSpaceSource: semiSpaceOverride === undefined ? 'stack-default' : 'BENCH_SEMI_SPACE_MB',
    },
    worker: {
      bundle: 'bench/archive-worker.ts, bundled as the stack does',
      nodeOptions: DEPLOYED_NODE_FLAGS,
    },
    ...compare(sizes, runs),
    byStage: Object.fromEntries(
      sizes.filter((size) => size !== largest).map((size) => [size, stagesOf(runs[size])]),
    ),
    runtimeHeap: compare(sizes, runtimeRuns),
    withLatency: {
      ...latency,
      runs: latencyRuns,
      wallRatio: wallOf(latencyRuns, 'archive') / wallOf(latencyRuns, 'discard'),
    },
    otherGzipLevel: {
      level: OTHER_GZIP_LEVEL,
      defaultLevel: DEFAULT_GZIP_LEVEL,
      bySize: Object.fromEntries(
        sizes.map((size) => {
          const other = otherLevelRuns[size]?.[0];
          return [
            size,
            {
              wallRatio: (other?.wallMs ?? Number.NaN) / wallOf(runs[size], 'discard'),
              bytes: other?.bytes ?? Number.NaN,
              defaultBytes: medianRun(runs[size], 'archive')?.bytes ?? Number.NaN,
            },
          ];
        }),
      ),
    },
  };
}

function stagesOf(runs: ArchiveRun[] | undefined): ArchiveStages {
  const ratios = (pick: (run: ArchiveRun) => number) => {
    const floor = medianOf(runs, 'discard', pick);
    return {
      slice: medianOf(runs, 'slice', pick) / floor,
      nullS3: medianOf(runs, 'archive-null-s3', pick) / floor,
      archive: medianOf(runs, 'archive', pick) / floor,
    };
  };
  return {
    wallRatio: ratios((run) => run.wallMs),
    cpuRatio: ratios((run) => run.cpuMs),
    motoCpuMs: medianOf(runs, 'archive', (run) => run.s3CpuMs),
  };
}

const wallOf = (runs: ArchiveRun[] | undefined, mode: Mode) =>
  medianOf(runs, mode, (run) => run.wallMs);

function compare(sizes: number[], runs: Record<number, ArchiveRun[]>): ArchiveComparison {
  const wallRatio: Record<number, number> = {};
  const cpuFloorRatio: Record<number, number> = {};
  for (const size of sizes) {
    const archive = medianRun(runs[size], 'archive');
    const discardMs = wallOf(runs[size], 'discard');
    wallRatio[size] = (archive?.wallMs ?? Number.NaN) / discardMs;
    const allCpuMs = archive ? archive.cpuMs + archive.serviceCpuMs + archive.s3CpuMs : Number.NaN;
    cpuFloorRatio[size] = allCpuMs / availableParallelism() / discardMs;
  }
  const rssOf = (size: number | undefined) =>
    size === undefined ? Number.NaN : medianPeakRss(runs[size], 'archive');
  const [largest, nextSize] = [...sizes].sort((a, b) => b - a);
  return {
    runs,
    wallRatio,
    cpuFloorRatio,
    rssRatio: rssOf(largest) / rssOf(Math.min(...sizes)),
    rssRatioToNextSize: rssOf(largest) / rssOf(nextSize),
  };
}

/** How a walk's process is started: the runtime's flags, through the stack's wrapper or not. */
interface HeapLaunch {
  runtimeFlags: string[];
  wrapper: { path: string; env: Record<string, string> } | undefined;
}

/** One emulator of `size` endpoints (optionally slowed down), one worker process per job. */
async function measure(
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
    await runWorker(worker.bundle, ['warm', ...args], DEPLOYED_NODE_FLAGS, worker.node);
    const out: ArchiveRun[] = [];
    for (const job of jobs) {
      const cpuBefore = [processCpuMs(emulator.pid), processCpuMs(s3.pid)];
      const toNullS3 = job.mode === 'archive-null-s3';
      const receivedBefore = s3.nullS3.bytesReceived();
      const walkArgs = toNullS3 ? args.with(3, s3.nullS3.endpoint) : args;
      const walk = await runWorker<ArchiveRun>(
        worker.bundle,
        [job.mode, ...walkArgs, ...(job.gzipLevel === undefined ? [] : [String(job.gzipLevel)])],
        [...DEPLOYED_NODE_FLAGS, ...heaps.runtimeFlags],
        worker.node,
        job.heap === 'deployed' ? heaps.wrapper : undefined,
      );
      const run: ArchiveRun = {
        ...walk,
        heap: job.heap,
        serviceCpuMs: processCpuMs(emulator.pid) - (cpuBefore[0] ?? Number.NaN),
        s3CpuMs: processCpuMs(s3.pid) - (cpuBefore[1] ?? Number.NaN),
        ...(toNullS3 ? { nullS3BytesReceived: s3.nullS3.bytesReceived() - receivedBefore } : {}),
      };
      const label = `${size}${latencyMs > 0 ? ` +${latencyMs} ms` : ''}, ${run.heap} heap (${run.heapFlags.join(' ')})${run.gzipLevel === undefined ? '' : `, gzip ${run.gzipLevel}`}`;
      process.stdout.write(`  archive ${label} ${job.mode}: ${JSON.stringify(run)}\n`);
      out.push(run);
    }
    return out;
  } finally {
    await emulator.stop();
  }
}
