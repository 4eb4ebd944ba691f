import { getHeapStatistics } from 'node:v8';
import {
  archiveGsmReports,
  GSM_REPORT_TYPES,
} from '../functions/report-fetcher/archive-reports.js';
import {
  archiveSnapshots,
  SNAPSHOT_PAGING,
} from '../functions/report-fetcher/archive-snapshots.js';
import { createAwsClients, ReportStore } from '../lib/aws/index.js';
import { SkywatchClient } from '../lib/index.js';
import { maxByTenth } from './tenths.js';

/**
 * One measurement in its own process, so its peak RSS is its own: walk a GSM's status
 * snapshots (4.3 and 4.4) in one of these ways and print what it cost.
 *   discard  download and parse every page, keep nothing (the floor)
 *   archive  the report fetcher's streaming archive (prefetch, gzip, multipart upload)
 *   warm     the first WARM_PAGES pages of each snapshot, unmeasured: warms the emulator up
 * Before the clock starts the walk does what the report fetcher's daily run does before its
 * snapshots: the day's usage reports (4.5, 4.6), archived through the same store when the walk
 * writes, so the service client holds a token and the S3 client has made its first requests.
 */
const [mode, baseUrl, authUrl, gsm, s3Endpoint, bucket] = process.argv.slice(2);
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
const store = new ReportStore(aws.s3, bucket ?? '');
const key = gsm ?? '';
const WARM_PAGES = 20;

async function reachSnapshots(): Promise<void> {
  if (mode === 'archive') {
    await archiveGsmReports(client, store, key, undefined);
    return;
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
}

async function run(): Promise<{ endpoints: number; bytes: number }> {
  if (mode === 'archive') {
    const [agents, dnsp] = await archiveSnapshots(client, store, key, '2026-06-15');
    return { endpoints: agents?.records ?? 0, bytes: (agents?.bytes ?? 0) + (dnsp?.bytes ?? 0) };
  }
  let endpoints = 0;
  const snapshots = [
    client.gsmAgentStatus(key, SNAPSHOT_PAGING),
    client.gsmDnspStatus(key, SNAPSHOT_PAGING),
  ];
  for (const [i, pager] of snapshots.entries()) {
    let pages = 0;
    for await (const page of pager.pages()) {
      if (i === 0) endpoints += page.entries.length;
      if (mode === 'warm' && ++pages === WARM_PAGES) break;
    }
  }
  return { endpoints, bytes: 0 };
}

function fail(error: unknown): never {
  console.log(JSON.stringify({ mode, error: (error as Error).message }));
  process.exit(1);
}

await reachSnapshots().catch(fail);
// RSS over the walk, to tell memory that levels off from memory that keeps climbing.
const rssSamples: { atMs: number; value: number }[] = [];
setInterval(() => {
  rssSamples.push({
    atMs: performance.now() - started,
    value: process.memoryUsage.rss() / 1048576,
  });
}, 100).unref();
const started = performance.now();
const cpuBefore = process.cpuUsage();
run()
  .then((result) => {
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    console.log(
      JSON.stringify({
        mode,
        ...result,
        wallMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        heapLimitMb: getHeapStatistics().heap_size_limit / 1048576,
        heapFlags: process.execArgv.filter((flag) => /^--max-(semi|old)-space-size=/.test(flag)),
        peakRssMb: process.resourceUsage().maxRSS / 1024,
        rssByTenthMiB: maxByTenth(rssSamples, wallMs),
      }),
    );
  })
  .catch(fail);
