import { availableParallelism } from 'node:os';
import { median, medianOf, medianRun, runsOf } from './medians.js';

// What an archive walk reports (archive-worker.ts, completed by archive-walks.ts) and how the
// walks of each size compare, archive against download-only, by medians.

/** What a walk does with the pages (archive-worker.ts). */
export type Mode = 'discard' | 'archive';

export interface ArchiveRun {
  mode: Mode;
  /** Walks the process made before the one measured (a warm Lambda container's). */
  walksBefore: number;
  endpoints: number;
  /** Compressed bytes of both snapshots (0 for download-only). */
  bytes: number;
  wallMs: number;
  /** CPU time of the walk in the measuring process (its threads included: gzip runs on libuv's pool). */
  cpuMs: number;
  /** CPU time the emulator and moto spent meanwhile (they share this machine's cores). */
  serviceCpuMs: number;
  s3CpuMs: number;
  peakRssMb: number;
  /** The largest RSS sampled in each tenth of the walk (null: no sample fell in it). */
  rssByTenthMiB: (number | null)[];
  /** The V8 heap limit and the heap flags the process was started with. */
  heapLimitMb: number;
  heapFlags: string[];
}

export interface ArchiveAtScale {
  /** The function's memory and the heap flags the Lambda runtime starts it with. */
  heap: { memoryMb: number; flags: string[] };
  /** What every walk ran: the worker bundled as the stack bundles a function, with its NODE_OPTIONS. */
  worker: { bundle: string; nodeOptions: string[] };
  runs: Record<number, ArchiveRun[]>;
  /** Median archive wall time over median download-only wall time, size by size. */
  wallRatio: Record<number, number>;
  /**
   * The smallest wall ratio this machine allows: all the CPU the archive took (walk, emulator,
   * moto) spread perfectly over every core, against the download-only wall time. Near the
   * ratio itself, the machine's cores were the limit.
   */
  cpuFloorRatio: Record<number, number>;
  /**
   * Flatness of the largest size's archive walks: the largest RSS sample of the last tenth of a
   * walk over that of the second tenth (the first holds start-up), median over the walks.
   */
  lastToSecondTenth: number;
  /** The highest peak RSS of any archive walk, in MB. */
  peakRssMb: number;
}

/** Last tenth over second tenth of one walk; NaN when a tenth has no sample (a short walk). */
export function lastToSecondTenth(run: ArchiveRun): number {
  const [second, last] = [run.rssByTenthMiB[1], run.rssByTenthMiB[9]];
  return second && last ? last / second : Number.NaN;
}

export function compare(
  sizes: number[],
  runs: Record<number, ArchiveRun[]>,
): Omit<ArchiveAtScale, 'heap' | 'worker'> {
  const wallRatio: Record<number, number> = {};
  const cpuFloorRatio: Record<number, number> = {};
  for (const size of sizes) {
    const archive = medianRun(runs[size], 'archive');
    const discardMs = medianOf(runs[size], 'discard', (run) => run.wallMs);
    wallRatio[size] = (archive?.wallMs ?? Number.NaN) / discardMs;
    const allCpuMs = archive ? archive.cpuMs + archive.serviceCpuMs + archive.s3CpuMs : Number.NaN;
    cpuFloorRatio[size] = allCpuMs / availableParallelism() / discardMs;
  }
  const archives = sizes.flatMap((size) => runsOf(runs[size], 'archive'));
  return {
    runs,
    wallRatio,
    cpuFloorRatio,
    lastToSecondTenth: median(runsOf(runs[Math.max(...sizes)], 'archive').map(lastToSecondTenth)),
    peakRssMb: Math.max(...archives.map((run) => run.peakRssMb)),
  };
}
