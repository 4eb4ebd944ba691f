import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { archiveAtScale } from './archive.js';
import type { ArchiveRun } from './archive-results.js';
import { coldStarts } from './cold-start.js';
import type { FanOut } from './fan-out.js';
import { measuredNode } from './measured-node.js';
import { medianPeakRss, medianRun, runsOf } from './medians.js';
import { runWorker, WorkerFailure } from './processes.js';
import { reportPage } from './report-page.js';
import type { TokenEconomy } from './token-economy.js';

/**
 * `npm run bench`: every figure is a ratio measured in one run on this machine (they are shared
 * and noisy), printed as a table and written to bench/results/. `BENCH_SIZES=10000,100000`
 * makes a quicker run than the default 10,000, 100,000 and 1,000,000 endpoints.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'CRITICAL';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const sizes = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
/** Timed pairs of loads per function; fewer make a quicker, noisier run. */
const coldStartRuns = Number(process.env.BENCH_COLD_RUNS ?? 21);
/** Where results go; the smoke test (test/scripts/bench.test.ts) keeps them out of the record. */
const resultsDir = process.env.BENCH_RESULTS_DIR ?? 'bench/results';
/** The issue's targets, each ratio's upper bound. */
const TARGET = { archiveWall: 1.25, peakRss: 1.5, fanOut: 1.2, coldStart: 1.5 } as const;
const pass = (ok: boolean) => (ok ? 'met' : 'MISSED');
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
/**
 * A ratio held against its target, with a third digit when two would round it onto the target
 * from the other side: 1.2538 shows as 1.254, not as a missed 1.25.
 */
const fmtAgainst = (n: number, target: number) =>
  fmt(n) === fmt(target) && n !== target ? fmt(n, 3) : fmt(n);

async function main(): Promise<void> {
  const started = new Date();
  const cores = availableParallelism();
  console.log(`Skywatch benchmarks on ${cpus().length} cores, Node ${process.version}`);
  // Archive walks and cold starts run on the Node.js major the stack deploys; the token economy
  // and fan-out count calls and time a pool's waits, which do not depend on it.
  const node = measuredNode();
  console.log(`measured processes run Node ${node.version} (${node.source})`);
  console.log('1. archive at scale');
  const archive = await archiveAtScale(node.path, sizes, 100_000, {
    endpoints: Number(process.env.BENCH_LATENCY_SIZE ?? 100_000),
    latencyMs: 50,
  });
  console.log('2. token economy (a simulated day)');
  const tokens = await runWorker<TokenEconomy>('bench/part.ts', ['token-economy']);
  console.log('3. fan-out (1,000 sites, 50 ms per call)');
  const fan = await runWorker<FanOut>('bench/part.ts', ['fan-out']);
  console.log('4. cold start');
  const cold = await coldStarts(node.path, coldStartRuns);
  console.log('5. report page (5,000 sites, headless Chromium)');
  const page = await reportPage();

  const rows: [string, string, string, string][] = [];
  const largest = Math.max(...sizes);
  const smallest = Math.min(...sizes);
  rows.push([
    'measured processes',
    `Node ${node.version} (${node.source}); the stack's bundles, started with ${archive.worker.nodeOptions.join(' ')}`,
    '',
    '',
  ]);
  const { heap } = archive;
  const heapFlags =
    heap.source === 'lambda-runtime'
      ? `the Lambda Node.js runtime's for the ${heap.memoryMb} MB report fetcher (${heap.flags.join(' ')})`
      : `BENCH_ARCHIVE_NODE_FLAGS: ${heap.flags.join(' ')}`;
  const fromBench = heap.semiSpaceSource === 'BENCH_SEMI_SPACE_MB' ? ' (BENCH_SEMI_SPACE_MB)' : '';
  const wrapper =
    heap.semiSpaceMb > 0
      ? `its semi-space set to ${heap.semiSpaceMb} MB by the stack's exec wrapper${fromBench}`
      : 'no exec wrapper (BENCH_SEMI_SPACE_MB=0)';
  rows.push(['archive heap', `${heapFlags}, ${wrapper}`, '', '']);
  for (const size of sizes) {
    for (const mode of ['discard', 'archive', 'collect'] as const) {
      const run = medianRun(archive.runs[size], mode);
      if (!run) continue;
      const walks = runsOf(archive.runs[size], mode).length;
      const rate = run.endpoints / (run.wallMs / 1000);
      rows.push([
        `archive ${size.toLocaleString('en')} ${mode}${walks > 1 ? ` (median of ${walks})` : ''}`,
        `${fmt(run.wallMs / 1000, 1)} s (CPU ${fmt(run.cpuMs / 1000, 1)} s, emulator ${fmt(run.serviceCpuMs / 1000, 1)} s, moto ${fmt(run.s3CpuMs / 1000, 1)} s), ${Math.round(rate).toLocaleString('en')} endpoints/s, ${fmt(run.bytes / 1e6, 1)} MB written`,
        `peak RSS ${Math.round(medianPeakRss(archive.runs[size], mode))} MB (heap ${Math.round(run.peakMiB.heapUsed)} MiB, outside it ${Math.round(run.peakMiB.external)} MiB)`,
        '',
      ]);
    }
    const ratio = archive.wallRatio[size] ?? Number.NaN;
    const busy = (mode: ArchiveRun['mode']) =>
      `${fmt(100 * (medianRun(archive.runs[size], mode)?.mainThreadBusy ?? Number.NaN), 0)} %`;
    rows.push([
      `archive ${size.toLocaleString('en')} wall / download-only`,
      `${fmtAgainst(ratio, TARGET.archiveWall)} (floor from all CPU on ${cores} cores: ${fmt(archive.cpuFloorRatio[size] ?? Number.NaN)}; main thread busy ${busy('archive')}, downloading ${busy('discard')})`,
      `target ≤ ${TARGET.archiveWall}`,
      pass(ratio <= TARGET.archiveWall),
    ]);
    const bare = archive.runtimeHeap;
    const bareRun = (mode: ArchiveRun['mode']) => medianRun(bare.runs[size], mode);
    rows.push([
      `  same, with the runtime's flags alone`,
      `${fmt(bare.wallRatio[size] ?? Number.NaN)} (floor ${fmt(bare.cpuFloorRatio[size] ?? Number.NaN)}; download-only ${fmt((bareRun('discard')?.wallMs ?? Number.NaN) / 1000, 1)} s, archive ${fmt((bareRun('archive')?.wallMs ?? Number.NaN) / 1000, 1)} s, peak RSS ${Math.round(bareRun('archive')?.peakRssMb ?? Number.NaN)} MB)`,
      'one walk each: what the wrapper buys',
      '',
    ]);
    const cold = archive.coldProcess;
    if (cold.wallRatio[size] !== undefined) {
      const coldRun = (mode: ArchiveRun['mode']) => medianRun(cold.runs[size], mode);
      rows.push([
        `  same, from cold processes`,
        `${fmt(cold.wallRatio[size])} (download-only ${fmt((coldRun('discard')?.wallMs ?? Number.NaN) / 1000, 2)} s, archive ${fmt((coldRun('archive')?.wallMs ?? Number.NaN) / 1000, 2)} s; medians of ${runsOf(cold.runs[size], 'archive').length})`,
        "both clients' first use inside the walk",
        '',
      ]);
    }
  }
  for (const [size, stages] of Object.entries(archive.byStage)) {
    const { wallRatio: wall, cpuRatio: cpu } = stages;
    rows.push([
      `archive ${Number(size).toLocaleString('en')} by stage: wall (CPU) / download-only`,
      `entry texts as NDJSON ${fmt(wall.slice)} (${fmt(cpu.slice)}); + gzip, SHA-256, multipart upload to a null S3 ${fmt(wall.nullS3)} (${fmt(cpu.nullS3)}); + moto storing it ${fmt(wall.archive)} (${fmt(cpu.archive)}; moto ${fmt(stages.motoCpuMs / 1000, 1)} s CPU)`,
      "where the archive's time goes",
      '',
    ]);
  }
  const other = archive.otherGzipLevel;
  for (const size of sizes) {
    const trade = other.bySize[size];
    if (!trade) continue;
    rows.push([
      `archive ${size.toLocaleString('en')} at gzip level ${other.level} instead of ${other.defaultLevel}`,
      `${fmt(trade.wallRatio)} × download-only, ${fmt(trade.bytes / 1e6, 1)} MB written (level ${other.defaultLevel}: ${fmt(trade.defaultBytes / 1e6, 1)} MB, ${fmt(100 * (trade.defaultBytes / trade.bytes - 1), 1)} % more)`,
      'the byte cost of the default level',
      '',
    ]);
  }
  const slow = archive.withLatency;
  rows.push([
    `archive ${slow.endpoints.toLocaleString('en')} with ${slow.latencyMs} ms per page: wall / download-only`,
    `${fmt(slow.wallRatio)} (${slow.runs.map((r) => `${r.mode} ${fmt(r.wallMs / 1000, 1)} s`).join(', ')})`,
    'what prefetching hides from a service over a network',
    '',
  ]);
  rows.push([
    'archive peak RSS by size',
    sizes
      .map((size) => {
        const walks = runsOf(archive.runs[size], 'archive');
        const young = walks.map((run) => Math.round(run.youngGeneration.peakMiB));
        const peaks = walks.map((run) => Math.round(run.peakRssMb));
        const range = (xs: number[]) =>
          Math.min(...xs) === Math.max(...xs)
            ? `${xs[0]}`
            : `${Math.min(...xs)}–${Math.max(...xs)}`;
        return `${size.toLocaleString('en')}: ${Math.round(medianPeakRss(archive.runs[size], 'archive'))} MB${walks.length > 1 ? ` (median of ${walks.length}, ${range(peaks)})` : ''}, young generation ${range(young)} MiB`;
      })
      .join('; '),
    "V8 grows the young generation to the flags' limit in any long walk, in some short ones",
    '',
  ]);
  const longest = medianRun(archive.runs[largest], 'archive');
  rows.push([
    `archive ${largest.toLocaleString('en')} RSS by tenth of the walk`,
    (longest?.rssByTenthMiB ?? []).map((mb) => (mb === null ? '–' : Math.round(mb))).join(', '),
    'MiB, the largest sample in each tenth: level, or climbing?',
    '',
  ]);
  rows.push([
    `peak RSS ${largest.toLocaleString('en')} / ${smallest.toLocaleString('en')}`,
    `${fmtAgainst(archive.rssRatio, TARGET.peakRss)} (medians; with the runtime's flags alone ${fmt(archive.runtimeHeap.rssRatio)})`,
    `target ≤ ${TARGET.peakRss}`,
    pass(archive.rssRatio <= TARGET.peakRss),
  ]);
  const [, nextSize] = [...sizes].sort((a, b) => b - a);
  if (nextSize !== undefined && nextSize !== smallest) {
    const peak = medianPeakRss(archive.runs[largest], 'archive');
    rows.push([
      `peak RSS ${largest.toLocaleString('en')} / ${nextSize.toLocaleString('en')}`,
      `${fmt(archive.rssRatioToNextSize)}; the largest peak is ${fmt((100 * peak) / archive.heap.memoryMb, 0)} % of the function's ${archive.heap.memoryMb} MB`,
      'not a target: growth once both walks hold the whole young generation',
      '',
    ]);
  }
  rows.push([
    'token calls in 24 h',
    `${tokens.tokenCalls} (${tokens.passwordGrants} password, ${tokens.refreshGrants} refresh)`,
    `target ≤ ${tokens.target}; re-auth every run: ${tokens.reauthenticateEveryRun}`,
    pass(tokens.tokenCalls <= tokens.target && tokens.passwordGrants <= 1),
  ]);
  rows.push([
    `fan-out ${fan.sites} sites × ${fan.latencyMs} ms, concurrency ${fan.concurrency}`,
    `${fmt(fan.wallMs / 1000)} s = ${fmtAgainst(fan.ratio, TARGET.fanOut)} × ideal ${fmt(fan.idealMs / 1000)} s; with local S3 writes ${fmt(fan.endToEndMs / 1000)} s; one by one ~${fmt(fan.sequentialEstimateMs / 1000, 0)} s`,
    `target ≤ ${TARGET.fanOut}`,
    pass(fan.ratio <= TARGET.fanOut && fan.failed === 0),
  ]);
  rows.push([
    `report page ${page.sites.toLocaleString('en')} sites, with the month's seats`,
    `${fmt(page.bytes / 1e6)} MB, rendered in ${fmt(page.renderMs / 1000)} s, opened in Chromium in ${fmt(page.loadMs / 1000)} s`,
    `target < ${page.target.bytes / 1e6} MB, < ${page.target.loadMs / 1000} s`,
    pass(page.bytes < page.target.bytes && page.loadMs < page.target.loadMs),
  ]);
  for (const c of cold.results) {
    rows.push([
      `cold start ${c.function}`,
      `${fmt(c.initMs, 0)} ms vs bare ${fmt(c.bareInitMs, 0)} ms (${c.sdkClients.join(', ')}), paired ratio ${fmtAgainst(c.ratio, TARGET.coldStart)}; ${fmt(c.initMs - c.initMsWithoutSourceMaps, 0)} ms of it reading the source map; bundle ${fmt(c.bundleBytes / 1024, 0)} KiB vs ${fmt(c.bareBytes / 1024, 0)} KiB`,
      `target ≤ ${TARGET.coldStart}`,
      pass(c.ratio <= TARGET.coldStart),
    ]);
  }
  const width = rows.reduce((w, r) => Math.max(w, r[0].length), 0);
  console.log('\nResults');
  for (const [name, value, target, verdict] of rows) {
    console.log(
      `  ${name.padEnd(width)}  ${value}${target ? `  (${target})` : ''}${verdict ? `  ${verdict}` : ''}`,
    );
  }
  const result = {
    startedAt: started.toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    measuredNode: { version: node.version, source: node.source },
    archive,
    tokens,
    fanOut: fan,
    coldStart: cold,
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `run-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  const latest = join(resultsDir, 'latest.json');
  const json = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(latest, json);
  console.log(`\nwrote ${file} and ${latest}`);
}

main().catch((error: unknown) => {
  // A worker's failure says which measurement and why; its stack would only point here.
  console.error('bench failed:', error instanceof WorkerFailure ? error.message : error);
  process.exit(1);
});
