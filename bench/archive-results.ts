import { availableParallelism } from 'node:os';
import { medianOf, medianPeakRss, medianRun } from './medians.js';

// What an archive walk reports (archive-worker.ts, completed by archive-walks.ts) and how the
// walks of each size compare, mode against mode, by medians.

/**
 * What a walk does with the pages (archive-worker.ts): `slice` and `archive-null-s3` are the
 * archive's stages, to say where its time goes.
 */
export type Mode = 'discard' | 'slice' | 'archive-null-s3' | 'archive' | 'collect';
/**
 * The heap the deployed report fetcher starts with (the Lambda runtime's flags, its young
 * generation set by the stack's semi-space wrapper), or the runtime's flags alone: what the
 * wrapper buys.
 */
export type Heap = 'deployed' | 'runtime';
/**
 * How a walk starts (archive-worker.ts): `after-reports` as the report fetcher's daily run
 * reaches its snapshots, the day's usage reports fetched and archived first with the same
 * clients; `cold` from a fresh process, both clients' first use inside the walk.
 */
export type WalkStart = 'after-reports' | 'cold';

export interface ArchiveRun {
  mode: Mode;
  start: WalkStart;
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
  /** Bytes of the usage reports an `after-reports` walk that writes stored before its clock started. */
  reportBytes?: number;
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
   * The smallest size walked again from cold processes, alternating with the others: what the
   * clients' first use (a token, the S3 client's first requests) adds to a short walk.
   */
  coldProcess: ArchiveComparison;
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

export function stagesOf(runs: ArchiveRun[] | undefined): ArchiveStages {
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

export const wallOf = (runs: ArchiveRun[] | undefined, mode: Mode) =>
  medianOf(runs, mode, (run) => run.wallMs);

export function compare(sizes: number[], runs: Record<number, ArchiveRun[]>): ArchiveComparison {
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
