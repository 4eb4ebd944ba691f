import type { ArchiveRun, Mode } from './archive-results.js';
import { DEPLOYED_NODE_FLAGS } from './bundle.js';
import { processCpuMs } from './process-cpu.js';
import { runWorker, startConsoleProcess } from './processes.js';

/**
 * One emulator of `size` endpoints, one fresh worker process per walk (`modes`, in order), each
 * started with the stack's NODE_OPTIONS and `heapFlags` on the Node.js binary given.
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
  const flags = [...DEPLOYED_NODE_FLAGS, ...worker.heapFlags];
  try {
    // The first walk after the emulator starts pays for its JIT warming up; a short unmeasured
    // walk keeps that out of whichever mode happens to run first.
    await runWorker(worker.bundle, ['warm', ...args], flags, worker.node);
    const out: ArchiveRun[] = [];
    for (const mode of modes) {
      const cpuBefore = [processCpuMs(emulator.pid), processCpuMs(s3.pid)];
      const walk = await runWorker<ArchiveRun>(worker.bundle, [mode, ...args], flags, worker.node);
      const run: ArchiveRun = {
        ...walk,
        serviceCpuMs: processCpuMs(emulator.pid) - (cpuBefore[0] ?? Number.NaN),
        s3CpuMs: processCpuMs(s3.pid) - (cpuBefore[1] ?? Number.NaN),
      };
      process.stdout.write(`  archive ${size} ${mode}: ${JSON.stringify(run)}\n`);
      out.push(run);
    }
    return out;
  } finally {
    await emulator.stop();
  }
}
