import { REPORT_FETCHER_MEMORY_MB } from '../infra/function-memory.js';
import { startMoto } from '../scripts/local/moto-server.js';
import { type ArchiveAtScale, type ArchiveRun, compare } from './archive-results.js';
import { measureWalks } from './archive-walks.js';
import { archiveWorkerBundle, DEPLOYED_NODE_FLAGS } from './bundle.js';
import { lambdaHeapFlags } from './lambda-heap.js';

/**
 * Walks of the smallest size, each mode: such a walk lasts about a second, so one walk is at
 * the mercy of a busy moment of this shared machine; medians of several steady it.
 */
const SMALLEST_SIZE_WALKS = Number(process.env.BENCH_SMALL_WALKS ?? 7);
/** Walks of every other size, each mode, compared by medians too. */
const OTHER_SIZE_WALKS = Number(process.env.BENCH_WALKS ?? 3);

/**
 * Archive at scale: the report fetcher's snapshot archive of a GSM of each size against the
 * same walk that discards every page, alternating, each walk a fresh process with the heap
 * flags the Lambda runtime gives the deployed function. The emulator and moto run on their own.
 */
export async function archiveAtScale(
  /** The Node.js binary every walk runs on (the deployed major: measured-node.ts). */
  node: string,
  sizes: number[],
): Promise<ArchiveAtScale> {
  const heapFlags = lambdaHeapFlags(REPORT_FETCHER_MEMORY_MB);
  const bundle = archiveWorkerBundle();
  const moto = await startMoto();
  const runs: Record<number, ArchiveRun[]> = {};
  const smallest = Math.min(...sizes);
  try {
    for (const size of sizes) {
      const walks = size === smallest ? SMALLEST_SIZE_WALKS : OTHER_SIZE_WALKS;
      const modes = Array.from({ length: walks }, () => ['discard', 'archive'] as const).flat();
      runs[size] = await measureWalks(
        { endpoint: moto.endpoint, pid: moto.pid },
        { bundle, node, heapFlags },
        size,
        modes,
      );
    }
  } finally {
    await moto.stop();
  }
  return {
    heap: { memoryMb: REPORT_FETCHER_MEMORY_MB, flags: heapFlags },
    worker: {
      bundle: 'bench/archive-worker.ts, bundled as the stack does',
      nodeOptions: DEPLOYED_NODE_FLAGS,
    },
    ...compare(sizes, runs),
  };
}
