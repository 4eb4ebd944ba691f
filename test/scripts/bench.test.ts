import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArchiveAtScale, ArchiveRun } from '../../bench/archive-results.js';
import type { ColdStart } from '../../bench/cold-start.js';
import type { FanOut } from '../../bench/fan-out.js';
import type { LatencyRun } from '../../bench/latency.js';
import type { TimeToPage } from '../../bench/time-to-page.js';
import type { TokenEconomy } from '../../bench/token-economy.js';

interface BenchResult {
  measuredNode: { version: string; source: string };
  archive: ArchiveAtScale;
  tokens: TokenEconomy;
  fanOut: FanOut;
  coldStart: { results: ColdStart[] };
  latency: LatencyRun[];
  timeToPage: TimeToPage;
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
      BENCH_WALKS: '1',
      BENCH_COLD_RUNS: '1',
      BENCH_LATENCY_ENDPOINTS: '1000',
      BENCH_LATENCY_SITES: '4',
      BENCH_PAGE_CHANGES: '4',
      BENCH_TOKEN_HOURS: '3',
      BENCH_FAN_OUT_SITES: '200',
      BENCH_LATENCY_SCALE: '0.25',
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
}, 420_000);
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

  it("walks every endpoint of each size both ways, warm, with the runtime's heap flags and bundle", () => {
    expect(result.archive.worker.nodeOptions).toEqual(['--enable-source-maps']);
    for (const size of SIZES) {
      for (const mode of ['discard', 'archive'] as const) {
        const runs = runsOf(size, mode);
        expect(runs.length, `${size} ${mode}`).toBeGreaterThan(0);
        for (const run of runs) {
          expect(run.endpoints, `${size} ${mode}`).toBe(size);
          // Measured on the process's second walk, the emulator's and moto's CPU over it alone.
          expect(run.walksBefore, `${size} ${mode}`).toBe(1);
          expect([run.serviceCpuMs, run.s3CpuMs].every(Number.isFinite), `${size} ${mode}`).toBe(
            true,
          );
          // The flags the Lambda Node.js runtime starts a 1,024 MB function with, no others.
          expect(run.heapFlags, `${size} ${mode}`).toEqual([
            '--max-semi-space-size=51',
            '--max-old-space-size=922',
          ]);
          expect(run.heapLimitMb, `${size} ${mode}`).toBeGreaterThan(900);
          // Sampled through the walk: no sample above the process's own peak.
          const sampled = run.rssByTenthMiB.filter((mb): mb is number => mb !== null);
          expect(sampled.length, `${size} ${mode}`).toBeGreaterThan(0);
          expect(Math.max(...sampled), `${size} ${mode}`).toBeLessThanOrEqual(run.peakRssMb + 1);
        }
      }
      expect(runsOf(size, 'archive')[0]?.bytes, String(size)).toBeGreaterThan(0);
      expect(result.archive.wallRatio[size], String(size)).toBeGreaterThan(0);
    }
  });

  it('prints each memory target against the highest peak of any archive walk', () => {
    const peaks = SIZES.flatMap((size) => runsOf(size, 'archive').map((run) => run.peakRssMb));
    expect(result.archive.peakRssMb).toBe(Math.max(...peaks));
    expect(stdout).toMatch(/archive peak RSS, any size +\d+ MB = \d+ % of the function's 1024 MB/);
    expect(stdout).toContain('RSS, last tenth / second tenth');
  });

  it('counts one password grant and a token call per access-token lifetime in a morning', () => {
    expect(result.tokens.simulatedHours).toBe(3);
    expect(result.tokens.target).toBe((3 * 3600) / 300 + 1);
    expect(result.tokens.passwordGrants).toBe(1);
    expect(result.tokens.tokenCalls).toBeLessThanOrEqual(result.tokens.target);
    expect(result.tokens.reauthenticateEveryRun).toBeGreaterThan(result.tokens.tokenCalls);
  });

  it('pages every state change through the alerter, the FIFO queue and the notifier', () => {
    expect(result.timeToPage.missed).toBe(0);
    expect(result.timeToPage.changes).toBe(4);
    // The schedule's wait is simulated inside its minute; the processing is measured.
    expect(result.timeToPage.pageP95Ms).toBeGreaterThan(result.timeToPage.processingP95Ms);
    expect(result.timeToPage.pageP95Ms).toBeLessThan(60_000 + result.timeToPage.processingP95Ms);
    expect(stdout).toMatch(/time to page, 4 changes, 60 s schedule +processing p95 [\d.]+ s/);
  });

  it('fetches every site of the fan-out', () => {
    expect(result.fanOut.sites).toBe(200);
    expect(result.fanOut.failed).toBe(0);
    expect(result.fanOut.fetched).toBe(200);
  });

  it('archives the realistic-latency console site by site at both latencies, in time-bounded invocations', () => {
    expect(result.latency.map((l) => l.latencyMs)).toEqual([250, 50]);
    expect(result.latency.map((l) => l.invocationMs)).toEqual([15_000, 5_000]);
    for (const l of result.latency) {
      expect(l.archive.complete, `${l.latencyMs}`).toBe(true);
      expect(l.archive.walks, `${l.latencyMs}`).toBe(2 * l.sites);
      expect(l.archive.pages, `${l.latencyMs}`).toBe(l.download.pages);
      expect(l.archive.longestInvocationMs, `${l.latencyMs}`).toBeLessThanOrEqual(l.invocationMs);
      expect(l.ratio, `${l.latencyMs}`).toBeGreaterThan(0);
    }
  });

  it('times the cold start of every function against a bare twin with its SDK clients', () => {
    const names = result.coldStart.results.map((c) => c.function);
    expect(names).toEqual([
      'token-refresher',
      'report-fetcher',
      'report-archive-worker',
      'blocked-url-alerter',
      'infection-alerter',
      'cart-customer-webhook',
      'report-builder',
      'alert-notifier',
    ]);
    for (const c of result.coldStart.results) {
      expect(c.sdkClients.length, c.function).toBeGreaterThan(0);
      expect(c.bundleBytes, c.function).toBeGreaterThan(c.bareBytes);
      expect(c.initMs, c.function).toBeGreaterThan(0);
    }
  });
});
