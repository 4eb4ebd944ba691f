import { getHeapStatistics } from 'node:v8';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { SERVICE_CONCURRENCY_DEFAULT } from '../functions/report-fetcher/archive-env.js';
import { createAwsClients } from '../lib/aws/index.js';
import { archiveWalks, downloadWalks, reachWalks, type Setup } from './day-job.js';
import { demoClient } from './demo-client.js';
import { maxByTenth } from './tenths.js';

/**
 * One measurement in its own process, so its peak RSS is its own: a GSM's status snapshots
 * walked as the report fetcher's job walks them (the console in one walk each, or site by site
 * above 100,000 endpoints or the last argument), in one of these ways:
 *   discard  download every page through the same limiter, keep nothing (the floor)
 *   archive  the job: every page compressed and uploaded, in invocations of `invocationMs`
 *   warm     the first WARM_PAGES pages, unmeasured: warms the emulator up
 * Before the clock starts the walk does what the job's opening does: the day's usage reports
 * (4.5, 4.6), archived when the walk writes, so the client holds a token and the S3 client has
 * made its first requests.
 */
const [
  mode,
  baseUrl,
  authUrl,
  gsm = '',
  s3Endpoint,
  given = '',
  concurrency = String(SERVICE_CONCURRENCY_DEFAULT),
  invocation,
  above,
] = process.argv.slice(2);
// A bucket of its own: each archive walk creates its day's job afresh.
const bucket = mode === 'archive' ? `${given}-${process.pid}` : given;
const invocationMs = invocation ? Number(invocation) : Number.POSITIVE_INFINITY;
let invocationEnds = Number.POSITIVE_INFINITY;
const client = demoClient(
  { baseUrl: baseUrl ?? '', authUrl: authUrl ?? '' },
  {
    attemptTimeoutMs: 60_000,
    // As a function's client: no call outlives its invocation.
    remainingTimeMs: () => invocationEnds - Date.now(),
  },
);
const aws = createAwsClients({
  endpoint: s3Endpoint ?? '',
  credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
});
const setup: Setup = {
  client,
  s3: aws.s3,
  bucket,
  gsm,
  concurrency: Number(concurrency),
  ...(above === undefined ? {} : { siteWalkAbove: Number(above) }),
};
const WARM_PAGES = 20;

function fail(error: unknown): never {
  console.log(JSON.stringify({ mode, error: (error as Error).message }));
  process.exit(1);
}

if (mode === 'archive') await aws.s3.send(new CreateBucketCommand({ Bucket: bucket })).catch(fail);
const opened = await reachWalks(setup, mode === 'archive').catch(fail);
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
const walk = async () => {
  if (mode === 'archive')
    return archiveWalks(setup, opened, invocationMs, (endsAt) => {
      invocationEnds = endsAt;
    });
  const pages = mode === 'warm' ? WARM_PAGES : Number.POSITIVE_INFINITY;
  return { ...(await downloadWalks(setup, opened, pages)), bytes: 0 };
};
walk()
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
