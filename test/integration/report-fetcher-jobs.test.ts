import { GetObjectCommand } from '@aws-sdk/client-s3';
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobStore } from '../../functions/report-fetcher/day-job.js';
import { StateStore } from '../../lib/aws/index.js';
import { lambdaContext } from '../../scripts/local/lambda-context.js';
import { type Product, startProduct } from '../support/product.js';
import { drainQueue } from '../support/sqs-event-source.js';

// A console above SITE_WALK_ABOVE is walked site by site; one service call at a time and a
// slow status page make an invocation of a few seconds stop mid-day and hand the day over.
const LATENCY_MS = 500;
const INVOCATION_MS = 2_400;

let product: Product;
let jobs: JobStore;
beforeAll(async () => {
  product = await startProduct(
    {},
    { SITE_WALK_ABOVE: '100', SERVICE_CONCURRENCY: '1', JOB_STALE_MINUTES: '1' },
  );
  jobs = new JobStore(new StateStore(product.aws.clients.s3, product.res.bucket));
  await product.run('token-refresher');
});
afterAll(async () => product?.close());

const day = (offset: number) => product.day(offset);

const lines = (key: string) => product.lines(key);

const readJob = async (date: string) => (await jobs.read(product.gsm, date))?.job;
/** Saves the job as if its owner last did two minutes ago: stale for JOB_STALE_MINUTES=1. */
const ageJob = async (date: string) => {
  const held = await jobs.read(product.gsm, date);
  if (!held) throw new Error('no job');
  await jobs.save(held, Date.now() - 120_000);
};
const worker = (timeoutMs = INVOCATION_MS) =>
  drainQueue(product.aws.clients.sqs, product.res.archiveQueueUrl, (event) =>
    product.run('report-archive-worker', event, lambdaContext('report-archive-worker', timeoutMs)),
  );

/** A backfill of `date` whose slow site reports make its invocation pause and hand over. */
async function runPastItsInvocation(date: string): Promise<void> {
  product.emulator.setFaults([
    { operation: 'report.site.dnsp', kind: 'latency', latencyMs: LATENCY_MS },
  ]);
  await product.run(
    'report-fetcher',
    { dates: [date] },
    lambdaContext('report-fetcher', INVOCATION_MS),
  );
  product.emulator.setFaults([]);
}

describe('Function: report-fetcher, a day that outgrows its invocation', () => {
  it('hands the day over, and the archive worker finishes it site by site', async () => {
    product.emulator.setFaults([
      { operation: 'status.site', kind: 'latency', latencyMs: LATENCY_MS },
    ]);
    const out = await product.run<{ days: { date: string; state: string }[] }>(
      'report-fetcher',
      { dates: [day(-2)] },
      lambdaContext('report-fetcher', INVOCATION_MS),
    );
    expect(out.days).toEqual([expect.objectContaining({ date: day(-2) })]);
    // A backfill has no snapshots; the daily run does.
    const daily = await product.run<{ days: { date: string; state: string }[] }>(
      'report-fetcher',
      {},
      lambdaContext('report-fetcher', INVOCATION_MS),
    );
    const newest = daily.days[0];
    expect(newest?.state).toBe('handed-over');
    const drained = await worker();
    product.emulator.setFaults([]);
    expect(drained.invocations).toBeGreaterThanOrEqual(1);
    const job = await readJob(newest?.date ?? '');
    expect(job?.tasks.every((t) => t.status === 'done')).toBe(true);
    // The backfill created the job, the daily run took it on to add the walks, then the worker.
    expect(job?.stats.invocations).toBeGreaterThanOrEqual(3);

    const sites = product.emulator.info().gsms[0]?.sites ?? [];
    const snapshotDay = day(0);
    const machines = new Set<unknown>();
    for (const site of sites) {
      const agents = await lines(
        `reports/agent-status/gsm=${product.gsm}/date=${snapshotDay}/site=${site.key}/snapshot.ndjson.gz`,
      );
      for (const a of agents) machines.add(a.MachineID);
      expect(
        await product.objects(
          `reports/dnsp-status/gsm=${product.gsm}/date=${snapshotDay}/site=${site.key}/`,
        ),
      ).toHaveLength(1);
    }
    expect(machines.size).toBe(product.emulator.info().gsms[0]?.endpointCount);
    const manifest = JSON.parse(
      (await (
        await product.aws.clients.s3.send(
          new GetObjectCommand({
            Bucket: product.res.bucket,
            Key: `manifests/report-fetcher/date=${newest?.date}/gsm=${product.gsm}.json`,
          }),
        )
      ).Body?.transformToString()) ?? '{}',
    );
    expect(manifest).toMatchObject({
      complete: true,
      snapshots: { walks: sites.length * 2, archived: sites.length * 2, failed: [] },
    });
  });

  it('drops a hand-over message that a newer one replaced', async () => {
    const job = await readJob(day(-2));
    if (!job) throw new Error('no job');
    const before = await product.objects(`state/report-fetcher/gsm=${product.gsm}/`);
    await product.aws.clients.sqs.send(
      new SendMessageCommand({
        QueueUrl: product.res.archiveQueueUrl,
        MessageBody: JSON.stringify({
          gsm: job.gsm,
          day: job.date,
          generation: job.generation - 1,
        }),
      }),
    );
    const drained = await worker();
    expect(drained).toMatchObject({ invocations: 1, failures: 0 });
    expect(await product.objects(`state/report-fetcher/gsm=${product.gsm}/`)).toEqual(before);
  });

  it('fails only the message that broke, and answers a batch that failed whole', async () => {
    const job = await readJob(day(-2));
    if (!job) throw new Error('no job');
    const record = (messageId: string, body: string) => ({
      messageId,
      receiptHandle: `handle-${messageId}`,
      body,
      attributes: { ApproximateReceiveCount: '1' },
      messageAttributes: {},
      md5OfBody: '',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:archive',
      awsRegion: 'us-east-1',
    });
    const replaced = JSON.stringify({
      gsm: job.gsm,
      day: job.date,
      generation: job.generation - 1,
    });
    const invoke = (records: ReturnType<typeof record>[]) =>
      product.run(
        'report-archive-worker',
        { Records: records },
        lambdaContext('report-archive-worker', 10_000),
      );
    expect(await invoke([record('broken', '{"gsm":'), record('replaced', replaced)])).toEqual({
      batchItemFailures: [{ itemIdentifier: 'broken' }],
    });
    expect(await invoke([record('broken', 'null')])).toEqual({
      batchItemFailures: [{ itemIdentifier: 'broken' }],
    });
    expect(await invoke([])).toEqual({ batchItemFailures: [] });
  });

  it('takes over a job whose hand-over was lost once it is stale', async () => {
    const date = day(-20);
    await runPastItsInvocation(date);
    const paused = await readJob(date);
    expect(paused?.tasks.some((t) => t.status === 'pending')).toBe(true);
    // The hand-over is lost (say, the queue refused it): nothing drains the queue.
    await drainQueue(product.aws.clients.sqs, product.res.archiveQueueUrl, async () => ({
      batchItemFailures: [],
    }));
    await ageJob(date);
    const out = await product.run<{ days: { date: string; state: string; complete: boolean }[] }>(
      'report-fetcher',
      { dates: [date] },
    );
    expect(out.days).toEqual([expect.objectContaining({ date, state: 'ended', complete: true })]);
  });

  it('lets a hand-over redriven from the dead-letter queue take a stale job on', async () => {
    const date = day(-25);
    await runPastItsInvocation(date);
    // The hand-over failed every delivery; redriven, SQS gives it a new id and the job has
    // moved on a generation since: only staleness lets it through.
    await drainQueue(product.aws.clients.sqs, product.res.archiveQueueUrl, async () => ({
      batchItemFailures: [],
    }));
    const paused = await readJob(date);
    if (!paused) throw new Error('no job');
    expect(paused.tasks.some((t) => t.status === 'pending')).toBe(true);
    const redriven = { gsm: paused.gsm, day: paused.date, generation: paused.generation - 1 };
    const send = () =>
      product.aws.clients.sqs.send(
        new SendMessageCommand({
          QueueUrl: product.res.archiveQueueUrl,
          MessageBody: JSON.stringify(redriven),
        }),
      );
    await send();
    await worker(60_000);
    expect((await readJob(date))?.tasks.some((t) => t.status === 'pending')).toBe(true);
    await ageJob(date);
    await send();
    await worker(60_000);
    expect((await readJob(date))?.tasks.every((t) => t.status === 'done')).toBe(true);
  });
});
