import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import {
  archiveGsmReports,
  GSM_REPORT_TYPES,
} from '../functions/report-fetcher/archive-reports.js';
import {
  archiveSnapshots,
  SNAPSHOT_PAGING,
} from '../functions/report-fetcher/archive-snapshots.js';
import { createAwsClients, DEFAULT_GZIP_LEVEL, ReportStore, reportKey } from '../lib/aws/index.js';
import { NdjsonEncoder } from '../lib/aws/ndjson-encoder.js';
import { SkywatchClient } from '../lib/index.js';
import { maxByTenth } from './tenths.js';

/**
 * One measurement in its own process, so its peak RSS is its own: walk a GSM's status
 * snapshots (4.3 and 4.4, pages of 1,000) in one of these ways and print what it cost.
 *   discard  download and parse every page, keep nothing (the floor)
 *   slice    download and parse, then each page's entry texts as NDJSON bytes, thrown away
 *   archive  the report fetcher's streaming archive (prefetch, gzip, multipart upload)
 *   archive-null-s3  the same archive, sent to an S3 endpoint that stores nothing (null-s3.ts)
 *   collect  the naive way: every page in memory, then one gzip and one upload
 *   warm     the first WARM_PAGES pages of each snapshot, unmeasured: warms the emulator up
 * and starts in one of these ways (WalkStart), before the clock starts:
 *   after-reports  as the report fetcher's daily run reaches its snapshots: the day's usage
 *                  reports (4.5, 4.6) fetched, and archived through the same store when the walk
 *                  writes, so the service client holds a token and the S3 client has made its
 *                  first requests
 *   cold           nothing: both clients' first use (the token, the S3 client's first request
 *                  and the Node modules it loads) falls inside the walk
 * An optional last argument is the gzip level of archive and collect (the store's default).
 */
const [mode, start, baseUrl, authUrl, gsm, s3Endpoint, bucket, level] = process.argv.slice(2);
const gzipLevel = level ? Number(level) : DEFAULT_GZIP_LEVEL;
const client = new SkywatchClient({
  baseUrl: baseUrl ?? '',
  authUrl: authUrl ?? '',
  auth: {
    clientId: 'skywatch-demo',
    clientSecret: 'demo-client-secret',
    username: 'ops@example.com',
    password: 'demo-password',
  },
  attemptTimeoutMs: 60_000,
});
const aws = createAwsClients({
  endpoint: s3Endpoint ?? '',
  credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
});
const store = new ReportStore(aws.s3, bucket ?? '', { gzipLevel });
const key = gsm ?? '';
const paging = { batchSize: 1000, prefetch: true } as const;

const WARM_PAGES = 20;
const WRITES = mode === 'archive' || mode === 'archive-null-s3' || mode === 'collect';

/** What the report fetcher does before its snapshots; answers the bytes it wrote. */
async function reachSnapshots(): Promise<number> {
  if (start !== 'after-reports') return 0;
  if (WRITES) {
    const { objects } = await archiveGsmReports(client, store, key, undefined);
    return objects.reduce((sum, o) => sum + (o.written ? o.bytes : 0), 0);
  }
  // The same calls archiveGsmReports makes, the day pinned by the first answer, nothing kept.
  let effectiveDate: string | undefined;
  for (const reportType of GSM_REPORT_TYPES) {
    const report = await client.gsmUsageReport(key, {
      reportType,
      ...(effectiveDate ? { effectiveDate } : {}),
    });
    effectiveDate ??= report.ReportInfo.EffectiveDate.slice(0, 10);
    await client.sitesUsageReport(key, { reportType, effectiveDate });
  }
  return 0;
}

async function run(): Promise<{ endpoints: number; bytes: number }> {
  if (mode === 'warm') {
    let endpoints = 0;
    for (const pager of [client.gsmAgentStatus(key, paging), client.gsmDnspStatus(key, paging)]) {
      let pages = 0;
      for await (const page of pager.pages()) {
        endpoints += page.entries.length;
        if (++pages === WARM_PAGES) break;
      }
    }
    return { endpoints, bytes: 0 };
  }
  if (mode === 'discard') {
    let endpoints = 0;
    for await (const page of client.gsmAgentStatus(key, paging).pages())
      endpoints += page.entries.length;
    for await (const page of client.gsmDnspStatus(key, paging).pages()) void page;
    return { endpoints, bytes: 0 };
  }
  if (mode === 'slice') {
    const ndjson = new NdjsonEncoder();
    let endpoints = 0;
    let bytes = 0;
    // Paged as the archive pages: texts taken while parsing.
    for await (const page of client.gsmAgentStatus(key, SNAPSHOT_PAGING).pages()) {
      bytes += ndjson.encodeTexts(page.entryTexts()).length;
      endpoints += page.entries.length;
    }
    for await (const page of client.gsmDnspStatus(key, SNAPSHOT_PAGING).pages())
      bytes += ndjson.encodeTexts(page.entryTexts()).length;
    return { endpoints, bytes };
  }
  if (mode === 'archive' || mode === 'archive-null-s3') {
    const [agents, dnsp] = await archiveSnapshots(client, store, key, '2026-06-15');
    return { endpoints: agents?.records ?? 0, bytes: (agents?.bytes ?? 0) + (dnsp?.bytes ?? 0) };
  }
  const agents: unknown[] = [];
  for await (const e of client.gsmAgentStatus(key, paging).entries()) agents.push(e);
  const dnsp: unknown[] = [];
  for await (const e of client.gsmDnspStatus(key, paging).entries()) dnsp.push(e);
  let bytes = 0;
  for (const [dataset, records] of [
    ['agent-status', agents],
    ['dnsp-status', dnsp],
  ] as const) {
    const body = gzipSync(records.map((r) => `${JSON.stringify(r)}\n`).join(''), {
      level: gzipLevel,
    });
    bytes += body.length;
    const Key = reportKey({ dataset, gsm: key, date: '2026-06-14', file: 'collected.ndjson.gz' });
    await aws.s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: body }));
  }
  return { endpoints: agents.length, bytes };
}

function fail(error: unknown): never {
  console.log(JSON.stringify({ mode, error: (error as Error).message }));
  process.exit(1);
}

const reportBytes = await reachSnapshots().catch(fail);
// Where the peak RSS goes: the V8 heap, or buffers outside it (gzip, upload parts), in MiB.
const peak = { heapUsed: 0, heapTotal: 0, external: 0 };
// V8 grows its young generation (new space) while survivors keep coming, up to the two
// semi-spaces the heap flags allow (2 × 64 MiB under the Lambda runtime's flags for 1,024 MB,
// 2 × 8 through the stack's semi-space wrapper), and keeps it: a long walk always ends up
// holding all of it, a short one sometimes does.
const young = { peakMiB: 0 };
// RSS over the walk, to tell memory that levels off from memory that keeps climbing.
const rssSamples: { atMs: number; value: number }[] = [];
setInterval(() => {
  const m = process.memoryUsage();
  rssSamples.push({ atMs: performance.now() - started, value: m.rss / 1048576 });
  for (const k of Object.keys(peak) as (keyof typeof peak)[])
    peak[k] = Math.max(peak[k], m[k] / 1048576);
  const newSpace = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  young.peakMiB = Math.max(young.peakMiB, (newSpace?.space_size ?? 0) / 1048576);
}, 100).unref();
const started = performance.now();
const cpuBefore = process.cpuUsage();
const loopBefore = performance.eventLoopUtilization();
run()
  .then((result) => {
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    console.log(
      JSON.stringify({
        mode,
        start,
        ...result,
        ...(WRITES ? { gzipLevel, reportBytes } : {}),
        wallMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        mainThreadBusy: performance.eventLoopUtilization(loopBefore).utilization,
        heapLimitMb: getHeapStatistics().heap_size_limit / 1048576,
        // What the process was really started with (the wrapper rewrites the runtime's flags).
        heapFlags: process.execArgv.filter((flag) => /^--max-(semi|old)-space-size=/.test(flag)),
        peakRssMb: process.resourceUsage().maxRSS / 1024,
        peakMiB: peak,
        rssByTenthMiB: maxByTenth(rssSamples, wallMs),
        youngGeneration: young,
      }),
    );
  })
  .catch(fail);
