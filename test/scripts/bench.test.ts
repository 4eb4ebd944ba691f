import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveAtScale, ArchiveRun } from '../../bench/archive-results.js';
import type { ColdStart } from '../../bench/cold-start.js';
import type { FanOut } from '../../bench/fan-out.js';
import type { TokenEconomy } from '../../bench/token-economy.js';

interface BenchResult {
  measuredNode: { version: string; source: string };
  archive: ArchiveAtScale;
  tokens: TokenEconomy;
  fanOut: FanOut;
  coldStart: { results: ColdStart[] };
}

// `npm run bench` is a command the README promises, and nothing else runs it at every commit:
// one run at toy sizes (about a minute) shows it still runs end to end on a clean clone and
// that what it measures is right. No figure of speed or memory is asserted: those are the
// bench's own report, from a full run on a quiet machine (docs/performance.md).
const SIZES = [2000, 5000] as const;
let dir: string;
let stdout = '';
let exitCode: number | null = null;
let result: BenchResult;
beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'skywatch-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], {
    env: {
      ...process.env,
      BENCH_SIZES: SIZES.join(','),
      BENCH_SMALL_WALKS: '1',
      BENCH_LATENCY_SIZE: '2000',
      BENCH_COLD_RUNS: '1',
      // The deployed Node major is a 50 MB download; the run's shape does not depend on it.
      BENCH_NODE: 'current',
      BENCH_RESULTS_DIR: dir,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  [exitCode] = (await once(child, 'exit')) as [number | null];
  result = JSON.parse(readFileSync(path.join(dir, 'latest.json'), 'utf8')) as BenchResult;
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runsOf = (size: number, mode: ArchiveRun['mode']) =>
  (result.archive.runs[size] ?? []).filter((run) => run.mode === mode);

describe('Command: npm run bench (toy sizes)', () => {
  it('finishes, prints the table and writes its results where it was told', () => {
    expect(exitCode).toBe(0);
    expect(stdout).toContain('\nResults\n');
    expect(stdout).toContain(`wrote ${path.join(dir, 'run-')}`);
    expect(result.measuredNode.source).toBe('BENCH_NODE=current');
  });

  it('walks every endpoint of each size in every mode, on the deployed heap and bundle', () => {
    expect(result.archive.heap.source).toBe('lambda-runtime');
    expect(result.archive.worker.nodeOptions).toEqual(['--enable-source-maps']);
    for (const size of SIZES) {
      for (const mode of ['discard', 'archive', 'collect'] as const) {
        const runs = runsOf(size, mode);
        expect(runs.length, `${size} ${mode}`).toBeGreaterThan(0);
        for (const run of runs) {
          expect(run.endpoints, `${size} ${mode}`).toBe(size);
          expect(run.heapLimitMb, `${size} ${mode}`).toBeGreaterThan(900);
          // Started as the stack starts the report fetcher: the runtime's flags for 1,024 MB,
          // the semi-space rewritten by the exec wrapper to the stack's default.
          expect(run.heapFlags, `${size} ${mode}`).toEqual([
            '--max-semi-space-size=8',
            '--max-old-space-size=922',
          ]);
          // Sampled through the walk: no sample above the process's own peak.
          const sampled = run.rssByTenthMiB.filter((mb): mb is number => mb !== null);
          expect(sampled.length, `${size} ${mode}`).toBeGreaterThan(0);
          expect(Math.max(...sampled), `${size} ${mode}`).toBeLessThanOrEqual(run.peakRssMb + 1);
        }
      }
    }
  });

  it("starts each walk as the report fetcher reaches its snapshots, after the day's reports", () => {
    for (const size of SIZES) {
      const runs = [
        ...(result.archive.runs[size] ?? []),
        ...(result.archive.runtimeHeap.runs[size] ?? []),
      ];
      expect(runs.length, String(size)).toBeGreaterThan(0);
      for (const run of runs) expect(run.start, `${size} ${run.mode}`).toBe('after-reports');
    }
    // The null S3 stores nothing, so each walk to it wrote the day's reports afresh.
    for (const run of runsOf(SIZES[0], 'archive-null-s3'))
      expect(run.reportBytes).toBeGreaterThan(0);
  });

  it('walks the smallest size from cold processes too, and only that size', () => {
    const [smallest, largest] = SIZES;
    const cold = result.archive.coldProcess.runs[smallest] ?? [];
    expect(cold.map((run) => run.mode).sort()).toEqual(['archive', 'discard']);
    for (const run of cold) {
      expect(run.start).toBe('cold');
      expect(run.endpoints).toBe(smallest);
    }
    expect(result.archive.coldProcess.wallRatio[smallest]).toBeGreaterThan(0);
    expect(result.archive.coldProcess.runs[largest]).toBeUndefined();
    expect(stdout).toContain('same, from cold processes');
  });

  it("walks each size again with the runtime's flags alone, to show what the wrapper buys", () => {
    expect(result.archive.heap.semiSpaceMb).toBe(8);
    for (const size of SIZES) {
      const runs = result.archive.runtimeHeap.runs[size] ?? [];
      expect(runs.map((run) => run.mode).sort(), String(size)).toEqual(['archive', 'discard']);
      for (const run of runs) {
        expect(run.endpoints).toBe(size);
        expect(run.heapFlags).toEqual(['--max-semi-space-size=51', '--max-old-space-size=922']);
      }
    }
  });

  it('archives, streaming, the very bytes the collect-everything alternative writes', () => {
    for (const size of SIZES) {
      const [archive] = runsOf(size, 'archive');
      const [collect] = runsOf(size, 'collect');
      expect(archive?.bytes, String(size)).toBeGreaterThan(0);
      expect(archive?.bytes, String(size)).toBe(collect?.bytes);
    }
  });

  it("walks the archive's stages, and the null S3 receives every byte of the archive", () => {
    const [smaller, largest] = SIZES;
    for (const run of [...runsOf(smaller, 'slice'), ...runsOf(smaller, 'archive-null-s3')]) {
      expect(run.endpoints, run.mode).toBe(smaller);
    }
    const [archive] = runsOf(smaller, 'archive');
    const toNullS3 = runsOf(smaller, 'archive-null-s3');
    expect(toNullS3.length).toBeGreaterThan(0);
    for (const run of toNullS3) {
      expect(run.bytes).toBe(archive?.bytes);
      expect(run.nullS3BytesReceived).toBe(run.bytes);
    }
    // The NDJSON the archive compresses is larger than what it writes.
    for (const run of runsOf(smaller, 'slice'))
      expect(run.bytes).toBeGreaterThan(archive?.bytes ?? 0);
    const stages = result.archive.byStage[smaller];
    for (const ratio of [stages?.wallRatio, stages?.cpuRatio].flatMap((r) =>
      Object.values(r ?? {}),
    ))
      expect(ratio).toBeGreaterThan(0);
    // The largest size (a minute a walk in the real run) is not walked by stage.
    expect(runsOf(largest, 'slice')).toEqual([]);
    expect(result.archive.byStage[largest]).toBeUndefined();
  });

  it('writes fewer bytes at gzip level 4 than at the default level 2', () => {
    for (const size of SIZES) {
      const level = result.archive.otherGzipLevel.bySize[size];
      expect(level?.bytes, String(size)).toBeLessThan(level?.defaultBytes ?? 0);
    }
  });

  it('counts one password grant and a token call per access-token lifetime in a day', () => {
    expect(result.tokens.passwordGrants).toBe(1);
    expect(result.tokens.tokenCalls).toBeLessThanOrEqual(result.tokens.target);
    expect(result.tokens.reauthenticateEveryRun).toBeGreaterThan(result.tokens.tokenCalls);
  });

  it('fetches and archives every site of the fan-out', () => {
    expect(result.fanOut.sites).toBe(1000);
    expect(result.fanOut.failed).toBe(0);
    expect(result.fanOut.archived).toBe(1000);
  });

  it('times the cold start of every function against a bare twin with its SDK clients', () => {
    const names = result.coldStart.results.map((c) => c.function);
    expect(names).toEqual([
      'token-refresher',
      'report-fetcher',
      'report-site-worker',
      'blocked-url-alerter',
      'infection-alerter',
      'cart-customer-webhook',
    ]);
    for (const c of result.coldStart.results) {
      expect(c.sdkClients.length, c.function).toBeGreaterThan(0);
      expect(c.bundleBytes, c.function).toBeGreaterThan(c.bareBytes);
      expect(c.initMs, c.function).toBeGreaterThan(0);
    }
  });
});
