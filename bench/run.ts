import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { join } from 'node:path';
import { findMotoPython } from '../scripts/local/moto-python.js';
import { archiveAtScale } from './archive.js';
import { coldStarts } from './cold-start.js';
import type { FanOut } from './fan-out.js';
import { LATENCY_TARGET, latencyMet, latencyRuns } from './latency.js';
import { type MeasuredNode, measuredNode } from './measured-node.js';
import { medianRun, runsOf } from './medians.js';
import { runWorker, WorkerFailure } from './processes.js';
import { reportPage } from './report-page.js';
import type { TimeToPage } from './time-to-page.js';
import type { TokenEconomy } from './token-economy.js';

/**
 * `npm run bench`: every figure is measured in one run on this machine (shared and noisy),
 * printed as a table and written to bench/results/ (not committed: docs/performance.md keeps
 * the current table). `BENCH_SIZES=10000,100000` makes a quicker run than the default 10,000,
 * 100,000 and 1,000,000 endpoints.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'CRITICAL';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const sizes = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
/** Timed pairs of loads per function; fewer make a quicker, noisier run. */
const coldStartRuns = Number(process.env.BENCH_COLD_RUNS ?? 21);
/** Scales the latency step's page latencies and invocations together (the smoke test's 0.25). */
const latencyScale = Number(process.env.BENCH_LATENCY_SCALE ?? 1);
/** Where results go; the smoke test (test/scripts/bench.test.ts) gives a directory of its own. */
const resultsDir = process.env.BENCH_RESULTS_DIR ?? 'bench/results';
const PART = 'bench/part.ts';
/** Targets (docs/performance.md): ratios' upper bounds; an archive walk's peak RSS share. */
const TARGET = { archiveWall: 1.25, flatRss: 1.1, peakShare: 0.35, fanOut: 1.2, coldStart: 1.5 };
type Row = [name: string, value: string, target: string, verdict: string];
const pass = (ok: boolean) => (ok ? 'met' : 'MISSED');
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
/** A third digit when two would round a figure onto its target from the other side. */
const fmtAgainst = (n: number, target: number) =>
  fmt(n) === fmt(target) && n !== target ? fmt(n, 3) : fmt(n);

/** The steps of a run, in order; `BENCH_STEPS=tokens,report-page` runs only those. */
const STEPS = {
  archive: 'archive at scale',
  tokens: 'token economy (a simulated day)',
  'fan-out': 'fan-out (1,000 sites or BENCH_FAN_OUT_SITES, 50 ms per call)',
  'cold-start': 'cold start',
  'report-page': 'report page (5,000 sites, headless Chromium)',
  latency: 'realistic latency (a large console site by site, 1 s and 200 ms a page)',
  'time-to-page': 'time to page (state change to PagerDuty incident, 1-minute schedule)',
};
const chosen = process.env.BENCH_STEPS?.split(',') ?? Object.keys(STEPS);
const failed: { step: string; reason: string }[] = [];

/** A step that fails is named and the run goes on (it is 25 minutes); the bench exits 1. */
async function step<T>(name: keyof typeof STEPS, run: () => Promise<T>) {
  if (!chosen.includes(name)) return undefined;
  console.log(`${Object.keys(STEPS).indexOf(name) + 1}. ${STEPS[name]}`);
  return run().catch((error: unknown) => {
    // A worker's failure says which measurement and why; its stack would only point here.
    const reason = error instanceof WorkerFailure ? error.message : String(error);
    console.error(`bench: step ${name} failed: ${reason}`);
    failed.push({ step: name, reason });
    return undefined;
  });
}

async function main(): Promise<void> {
  const started = new Date();
  // Every step's processes start moto's server: they find its interpreter at once.
  try {
    process.env.SKYWATCH_MOTO_PYTHON ??= findMotoPython();
  } catch {
    // Left to each step that needs moto, which fails naming it.
  }
  console.log(`Skywatch benchmarks on ${cpus().length} cores, Node ${process.version}`);
  // Archive walks and cold starts run on the Node.js major the stack deploys; the token economy
  // and fan-out count calls and time a pool's waits, which do not depend on it.
  let node: MeasuredNode | undefined;
  // Found once, when a step first needs it (the table's first row names it).
  const measured = () => {
    node ??= measuredNode();
    return node.path;
  };
  const archive = await step('archive', () => archiveAtScale(measured(), sizes));
  const tokens = await step('tokens', () => runWorker<TokenEconomy>(PART, ['token-economy']));
  const fan = await step('fan-out', () => runWorker<FanOut>(PART, ['fan-out']));
  const cold = await step('cold-start', () => coldStarts(measured(), coldStartRuns));
  const page = await step('report-page', () => reportPage());
  // Invocations far shorter than Lambda's 15 minutes, so walks must stop and go on.
  const latency = await step('latency', () =>
    latencyRuns([
      { latencyMs: 1000 * latencyScale, concurrency: 16, invocationMs: 60_000 * latencyScale },
      { latencyMs: 200 * latencyScale, concurrency: 16, invocationMs: 20_000 * latencyScale },
    ]),
  );

  const pageTime = await step('time-to-page', () => runWorker<TimeToPage>(PART, ['time-to-page']));

  const rows: Row[] = [];
  if (archive && node) {
    const largest = Math.max(...sizes);
    rows.push([
      'measured processes',
      `Node ${node.version} (${node.source}); the stack's bundles with ${archive.worker.nodeOptions.join(' ')} and the Lambda runtime's heap flags for ${archive.heap.memoryMb} MB (${archive.heap.flags.join(' ')})`,
      '',
      '',
    ]);
    for (const size of sizes) {
      for (const mode of ['discard', 'archive'] as const) {
        const run = medianRun(archive.runs[size], mode);
        if (!run) continue;
        const walks = runsOf(archive.runs[size], mode).length;
        const rate = run.endpoints / (run.wallMs / 1000);
        rows.push([
          `archive ${size.toLocaleString('en')} ${mode === 'discard' ? 'download-only' : mode}${walks > 1 ? ` (median of ${walks})` : ''}`,
          `${fmt(run.wallMs / 1000, 1)} s (CPU ${fmt(run.cpuMs / 1000, 1)} s, emulator ${fmt(run.serviceCpuMs / 1000, 1)} s, moto ${fmt(run.s3CpuMs / 1000, 1)} s), ${Math.round(rate).toLocaleString('en')} endpoints/s, ${fmt(run.bytes / 1e6, 1)} MB written, peak RSS ${Math.round(run.peakRssMb)} MB`,
          '',
          '',
        ]);
      }
      const ratio = archive.wallRatio[size] ?? Number.NaN;
      rows.push([
        `archive ${size.toLocaleString('en')} wall / download-only`,
        `${fmtAgainst(ratio, TARGET.archiveWall)} (floor from all CPU on ${availableParallelism()} cores: ${fmt(archive.cpuFloorRatio[size] ?? Number.NaN)})`,
        `target ≤ ${TARGET.archiveWall}`,
        pass(ratio <= TARGET.archiveWall),
      ]);
    }
    const longest = medianRun(archive.runs[largest], 'archive');
    rows.push([
      `archive ${largest.toLocaleString('en')} RSS by tenth of the walk`,
      (longest?.rssByTenthMiB ?? []).map((mb) => (mb === null ? '–' : Math.round(mb))).join(', '),
      'MiB, the largest sample in each tenth (median walk)',
      '',
    ]);
    rows.push([
      `archive ${largest.toLocaleString('en')} RSS, last tenth / second tenth`,
      `${fmtAgainst(archive.lastToSecondTenth, TARGET.flatRss)} (median of the walks)`,
      `target ≤ ${TARGET.flatRss}: flat`,
      pass(archive.lastToSecondTenth <= TARGET.flatRss),
    ]);
    const share = archive.peakRssMb / archive.heap.memoryMb;
    rows.push([
      'archive peak RSS, any size',
      `${Math.round(archive.peakRssMb)} MB = ${fmt(100 * share, 0)} % of the function's ${archive.heap.memoryMb} MB`,
      `target ≤ ${100 * TARGET.peakShare} %`,
      pass(share <= TARGET.peakShare),
    ]);
  }
  if (tokens)
    rows.push([
      `token calls in ${tokens.simulatedHours} h`,
      `${tokens.tokenCalls} (${tokens.passwordGrants} password, ${tokens.refreshGrants} refresh)`,
      `target ≤ ${tokens.target}; re-auth every run: ${tokens.reauthenticateEveryRun}`,
      pass(tokens.tokenCalls <= tokens.target && tokens.passwordGrants <= 1),
    ]);
  if (fan)
    rows.push([
      `fan-out ${fan.sites} sites × ${fan.latencyMs} ms, concurrency ${fan.concurrency}`,
      `${fmt(fan.wallMs / 1000)} s = ${fmtAgainst(fan.ratio, TARGET.fanOut)} × ideal ${fmt(fan.idealMs / 1000)} s; one by one ~${fmt(fan.sequentialEstimateMs / 1000, 0)} s`,
      `target ≤ ${TARGET.fanOut}`,
      pass(fan.ratio <= TARGET.fanOut && fan.failed === 0),
    ]);
  if (page)
    rows.push([
      `report page ${page.sites.toLocaleString('en')} sites, with the month's seats`,
      `${fmt(page.bytes / 1e6)} MB, rendered in ${fmt(page.renderMs / 1000)} s, opened in Chromium in ${fmt(page.loadMs / 1000)} s`,
      `target < ${page.target.bytes / 1e6} MB, < ${page.target.loadMs / 1000} s`,
      pass(page.bytes < page.target.bytes && page.loadMs < page.target.loadMs),
    ]);
  for (const c of cold?.results ?? []) {
    rows.push([
      `cold start ${c.function}`,
      `${fmt(c.initMs, 0)} ms vs bare ${fmt(c.bareInitMs, 0)} ms (${c.sdkClients.join(', ')}), paired ratio ${fmtAgainst(c.ratio, TARGET.coldStart)}; bundle ${fmt(c.bundleBytes / 1024, 0)} KiB vs ${fmt(c.bareBytes / 1024, 0)} KiB`,
      `target ≤ ${TARGET.coldStart}`,
      pass(c.ratio <= TARGET.coldStart),
    ]);
  }
  for (const l of latency ?? []) {
    const a = l.archive;
    rows.push([
      `latency ${l.endpoints.toLocaleString('en')} endpoints, ${l.sites} sites, ${l.latencyMs} ms a page, concurrency ${l.concurrency}, invocations of ${fmt(l.invocationMs / 1000, 0)} s`,
      `${fmt(a.wallMs / 1000, 1)} s = ${fmtAgainst(l.ratio, LATENCY_TARGET)} × max(ideal ${fmt(l.idealMs / 1000, 1)} s, download-only ${fmt(l.download.wallMs / 1000, 1)} s); ${a.pages} pages, ${a.walks} walks ${a.complete ? 'all archived' : 'NOT all archived'}, ${a.invocations} invocations (longest ${fmt(a.longestInvocationMs / 1000, 1)} s), ${a.resumptions} resumptions, ${l.tokenCalls} token calls, ${a.throttles} throttled, peak RSS ${Math.round(a.peakRssMb)} MB`,
      `target ≤ ${LATENCY_TARGET}, every walk done, no invocation past its timeout`,
      pass(latencyMet(l)),
    ]);
  }
  if (pageTime) {
    const t = pageTime.target;
    rows.push([
      `time to page, ${pageTime.changes} changes, ${pageTime.scheduleSeconds} s schedule`,
      `processing p95 ${fmt(pageTime.processingP95Ms / 1000, 1)} s (p50 ${fmt(pageTime.processingP50Ms / 1000, 1)} s); time to page p95 ${fmt(pageTime.pageP95Ms / 1000, 1)} s (p50 ${fmt(pageTime.pageP50Ms / 1000, 1)} s); ${pageTime.missed} never paged`,
      `target p95 ≤ ${t.processingP95Ms / 1000} s and ≤ ${t.pageP95Ms / 1000} s`,
      pass(
        pageTime.missed === 0 &&
          pageTime.processingP95Ms <= t.processingP95Ms &&
          pageTime.pageP95Ms <= t.pageP95Ms,
      ),
    ]);
  }
  const width = rows.reduce((w, r) => Math.max(w, r[0].length), 0);
  console.log('\nResults');
  for (const [name, value, target, verdict] of rows) {
    console.log(
      `  ${name.padEnd(width)}  ${value}${target ? `  (${target})` : ''}${verdict ? `  ${verdict}` : ''}`,
    );
  }
  for (const f of failed) console.log(`  ${f.step.padEnd(width)}  FAILED: ${f.reason}`);
  const result = {
    startedAt: started.toISOString(),
    machine: { cores: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    measuredNode: node && { version: node.version, source: node.source },
    ...{
      archive,
      tokens,
      fanOut: fan,
      coldStart: cold,
      page,
      latency,
      timeToPage: pageTime,
      failed,
    },
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `run-${started.toISOString().replace(/[:.]/g, '-')}.json`);
  const latest = join(resultsDir, 'latest.json');
  const json = `${JSON.stringify(result, null, 2)}\n`;
  writeFileSync(file, json);
  writeFileSync(latest, json);
  console.log(`\nwrote ${file} and ${latest}`);
  if (failed.length > 0) {
    console.error(`bench: ${failed.map((f) => f.step).join(', ')} failed; the rest is above`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error('bench failed:', error);
  process.exit(1);
});
