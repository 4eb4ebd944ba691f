import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { SERVICE_CONCURRENCY_DEFAULT } from '../functions/shared/env.js';
import { createAwsClients } from '../lib/aws/index.js';
import { archiveWalks, downloadWalks, reachWalks, type Setup } from './day-job.js';
import { demoClient } from './demo-client.js';
import { processCpuMs } from './process-cpu.js';
import { maxByTenth } from './tenths.js';

/**
 * One measurement in its own process, so its peak RSS is its own: a GSM's status snapshots
 * walked as the report fetcher's job walks them (the console in one walk each, or site by site
 * above 100,000 endpoints or the last argument), in one of these ways:
 *   discard  download every page through the same limiter, keep nothing (the floor)
 *   archive  the job: every page compressed and uploaded, in invocations of `invocationMs`
 * Before the clock starts the walk does what the job's opening does: the day's usage reports
 * (4.5, 4.6), archived when the walk writes, so the client holds a token and the S3 client has
 * made its first requests.
 *
 * With --warm-up, the walk measured is the process's second, as a warm Lambda container runs it:
 * V8 sizes its young generation once, during the first, and that start-up is not growth over a
 * walk (docs/performance.md, "Flatness"); the peak RSS is the process's. With --serving=PID,PID
 * the emulator's and moto's CPU time over the measured walk is reported with it.
 */
const { values: flags, positionals } = parseArgs({
  options: { 'warm-up': { type: 'boolean' }, serving: { type: 'string' } },
  allowPositionals: true,
});
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
] = positionals;
const warmUp = flags['warm-up'] === true;
const pids = (flags.serving ?? '').split(',').map(Number);
const servingCpuMs = (): [number, number] => [processCpuMs(pids[0]), processCpuMs(pids[1])];
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
  bucket: given,
  gsm,
  concurrency: Number(concurrency),
  ...(above === undefined ? {} : { siteWalkAbove: Number(above) }),
};

function fail(error: unknown): never {
  console.log(JSON.stringify({ mode, error: (error as Error).message }));
  process.exit(1);
}

/** Walk `n`, opened and not begun: each archive walk creates its job afresh, in its own bucket. */
async function openWalk(n: number) {
  const writes = mode === 'archive';
  const own = writes ? { ...setup, bucket: `${given}-${process.pid}-${n}` } : setup;
  if (writes) await aws.s3.send(new CreateBucketCommand({ Bucket: own.bucket }));
  const opened = await reachWalks(own, writes);
  if (writes)
    return () =>
      archiveWalks(own, opened, invocationMs, (endsAt) => {
        invocationEnds = endsAt;
      });
  return async () => ({ ...(await downloadWalks(own, opened)), bytes: 0 });
}

if (warmUp) await (await openWalk(1).catch(fail))().catch(fail);
const walk = await openWalk(2).catch(fail);
// RSS over the walk, to tell memory that levels off from memory that keeps climbing.
const rssSamples: { atMs: number; value: number }[] = [];
const started = performance.now();
const sampleRss = () =>
  rssSamples.push({
    atMs: performance.now() - started,
    value: process.memoryUsage.rss() / 1048576,
  });
// One at the start too: a warm walk of a toy console can end within the first interval.
sampleRss();
setInterval(sampleRss, 100).unref();
const cpuBefore = process.cpuUsage();
const servingBefore = servingCpuMs();
walk()
  .then((result) => {
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const [serviceMs, s3Ms] = servingCpuMs();
    console.log(
      JSON.stringify({
        mode,
        walksBefore: warmUp ? 1 : 0,
        ...result,
        wallMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        serviceCpuMs: serviceMs - servingBefore[0],
        s3CpuMs: s3Ms - servingBefore[1],
        heapLimitMb: getHeapStatistics().heap_size_limit / 1048576,
        heapFlags: process.execArgv.filter((flag) => /^--max-(semi|old)-space-size=/.test(flag)),
        peakRssMb: process.resourceUsage().maxRSS / 1024,
        rssByTenthMiB: maxByTenth(rssSamples, wallMs),
      }),
    );
  })
  .catch(fail);
