import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../functions/report-fetcher/manifest.js';
import { type Product, startProduct } from '../support/product.js';
import { drainQueue } from '../support/sqs-event-source.js';

/**
 * The report fetcher's fan-out end to end: the handler queues every site (threshold 1), the
 * site worker is driven from the real local queue as Lambda's event source mapping would
 * drive it, the queue's redrive policy (maxReceiveCount 3) moves what keeps failing to the
 * dead-letter queue, and the manifests say what is missing until a later run catches it up.
 */
let product: Product;
let sites: string[];
let failing: string[];
beforeAll(async () => {
  product = await startProduct(
    {},
    { FANOUT_THRESHOLD: '1', CATCH_UP_DAYS: '1', SKYWATCH_MAX_ATTEMPTS: '2' },
  );
  await product.run('token-refresher');
  sites = (product.emulator.info().gsms[0]?.sites ?? []).map((s) => s.key).sort();
  failing = [sites[1] ?? '', sites[3] ?? ''];
});
afterAll(async () => product?.close());

const day = (offset: number) =>
  new Date(product.emulator.now().getTime() + offset * 86_400_000).toISOString().slice(0, 10);

interface RunOutput {
  manifests: {
    date: string;
    complete: boolean;
    queued: number;
    sites: Manifest['sites'];
  }[];
}

async function manifest(date: string): Promise<Manifest> {
  const out = await product.aws.clients.s3.send(
    new GetObjectCommand({
      Bucket: product.res.bucket,
      Key: `manifests/report-fetcher/date=${date}/gsm=${product.gsm}.json`,
    }),
  );
  return JSON.parse((await out.Body?.transformToString()) ?? '{}');
}

const runWorkers = () =>
  drainQueue(
    product.aws.clients.sqs,
    product.res.fanoutQueueUrl,
    (event: SQSEvent) => product.run<SQSBatchResponse>('report-site-worker', event),
    { batchSize: 3 },
  );

async function deadLetters(): Promise<{ site: string; day: string }[]> {
  const out = await product.aws.clients.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: product.res.fanoutDlqUrl,
      MaxNumberOfMessages: 10,
      WaitTimeSeconds: 0,
    }),
  );
  return (out.Messages ?? []).map((m) => JSON.parse(m.Body ?? '{}'));
}

const dnspKey = (date: string, site: string) =>
  `reports/dnsp-usage/gsm=${product.gsm}/date=${date}/type=DevicesSeenInLast30Days/site=${site}/report.ndjson.gz`;

describe('Function: report-fetcher fan-out through SQS', () => {
  it('names the sites whose messages end in the dead-letter queue as missing', async () => {
    const d = day(-3);
    product.emulator.setFaults(
      failing.map((site) => ({
        operation: 'report.site.dnsp' as const,
        pathIncludes: `/sites/${site}/`,
        kind: 'status' as const,
        status: 500 as const,
      })),
    );
    const out = await product.run<RunOutput>('report-fetcher', { dates: [d] });
    expect(out.manifests).toHaveLength(1);
    expect(out.manifests[0]).toMatchObject({ date: d, complete: false, queued: sites.length });
    // Nothing is archived until a worker says so.
    expect(out.manifests[0]?.sites.missing).toEqual(sites);

    const drained = await runWorkers();
    // Each failing site: three receives (maxReceiveCount 3), then the redrive to the DLQ.
    expect(drained.failures).toBe(failing.length * 3);
    const dead = await deadLetters();
    expect(dead.map((m) => m.site).sort()).toEqual(failing);
    expect(dead.every((m) => m.day === d)).toBe(true);

    const m = await manifest(d);
    expect(m.complete).toBe(false);
    expect(m.sites.missing).toEqual(failing);
    expect(m.sites.archived).toBe(sites.length - failing.length);
    expect(m.sites.failed.map((f) => [f.site, f.attempts])).toEqual(failing.map((s) => [s, 3]));
    expect(m.sites.failed[0]?.reason).toMatch(/500|internal/i);
    // The workers' DNSP reports are in the manifest with the sizes S3 holds.
    const dnsp = m.objects.filter((o) => o.key.startsWith('reports/dnsp-usage/'));
    expect(dnsp.map((o) => o.site)).toEqual(sites.filter((s) => !failing.includes(s)));
    for (const o of dnsp) {
      const head = await product.aws.clients.s3.send(
        new HeadObjectCommand({ Bucket: product.res.bucket, Key: o.key }),
      );
      expect([head.ContentLength, head.Metadata?.sha256]).toEqual([o.bytes, o.sha256]);
    }
    expect(await product.objects(dnspKey(d, failing[0] ?? ''))).toEqual([]);
    product.emulator.setFaults([]);
  });

  it('lets the next daily run re-queue only the missing sites, and completes the day', async () => {
    const d = day(-3);
    const out = await product.run<RunOutput>('report-fetcher');
    // The newest day, all of it queued; then the day to catch up, only its missing sites.
    expect(out.manifests.map((m) => [m.date, m.queued])).toEqual([
      [day(-2), sites.length],
      [d, failing.length],
    ]);
    expect(out.manifests[1]?.sites.missing).toEqual(failing);

    const drained = await runWorkers();
    expect(drained).toMatchObject({ deliveries: sites.length + failing.length, failures: 0 });
    const caughtUp = await manifest(d);
    expect(caughtUp).toMatchObject({ complete: true, sites: { missing: [], failed: [] } });
    expect(caughtUp.sites.archived).toBe(sites.length);
    for (const site of failing) expect(await product.objects(dnspKey(d, site))).toHaveLength(1);
    expect(caughtUp.objects.filter((o) => o.site).map((o) => o.site)).toEqual(sites);
    // The last worker of the newest day completed its manifest too.
    expect((await manifest(day(-2))).complete).toBe(true);
  });

  it('leaves the bucket unchanged when a finished fanned-out day is archived again', async () => {
    const before = await product.objects();
    const out = await product.run<RunOutput>('report-fetcher', { dates: [day(-3)] });
    // Complete at once: every site's record is still there; the workers only confirm it.
    expect(out.manifests[0]).toMatchObject({ complete: true, queued: sites.length });
    expect(await runWorkers()).toMatchObject({ deliveries: sites.length, failures: 0 });
    expect(await product.objects()).toEqual(before);
  });
});
