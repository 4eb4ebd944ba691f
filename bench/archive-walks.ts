import type { ArchiveRun, Mode } from './archive-results.js';
import { DEPLOYED_NODE_FLAGS } from './bundle.js';
import { runWorker, startConsoleProcess } from './processes.js';

/**
 * One emulator of `size` endpoints, one fresh worker process per walk (`modes`, in order), each
 * started with the stack's NODE_OPTIONS and `heapFlags` on the Node.js binary given, and each
 * measured on its second walk (archive-worker.ts): the first also warms the emulator's JIT up.
 */
export async function measureWalks(
  s3: { endpoint: string; pid: number | undefined },
  worker: { bundle: string; node: string; heapFlags: string[] },
  size: number,
  modes: Mode[],
): Promise<ArchiveRun[]> {
  // The worker's archive walks each create a bucket of their own from this name.
  const bucket = `bench-archive-${size}`;
  const emulator = await startConsoleProcess(Math.max(1, Math.round(size / 1000)), size);
  const args = [emulator.baseUrl, emulator.authUrl, emulator.gsm, s3.endpoint, bucket];
  args.push('--warm-up', `--serving=${emulator.pid},${s3.pid}`);
  const flags = [...DEPLOYED_NODE_FLAGS, ...worker.heapFlags];
  try {
    const out: ArchiveRun[] = [];
    for (const mode of modes) {
      const run = await runWorker<ArchiveRun>(worker.bundle, [mode, ...args], flags, worker.node);
      process.stdout.write(`  archive ${size} ${mode}: ${JSON.stringify(run)}\n`);
      out.push(run);
    }
    return out;
  } finally {
    await emulator.stop();
  }
}
