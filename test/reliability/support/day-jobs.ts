import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  CreateBucketCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  type S3Client,
} from '@aws-sdk/client-s3';
import { type HeldJob, JobStore, jobEnded } from '../../../functions/report-fetcher/day-job.js';
import { archiveGsmReports, newJob } from '../../../functions/report-fetcher/open-day.js';
import {
  type JobSettings,
  type RunOutcome,
  runJob,
} from '../../../functions/report-fetcher/run-job.js';
import { ReportStore, StateStore } from '../../../lib/aws/index.js';
import type { SkywatchClient } from '../../../lib/index.js';
import { systemClock as virtualClock } from './virtual-time.js';

/**
 * A day's job run the way the report fetcher and its archive worker run it, invocation after
 * invocation, against the emulator and local S3, with each invocation's end decided by the test
 * (after a given number of pages) instead of a clock.
 */
export interface JobHarness {
  s3: S3Client;
  client: SkywatchClient;
  gsm: string;
  /** The day's status snapshots (a daily run's "today"). */
  snapshotDate: string;
}

export const PART_SIZE = 64 * 1024;
export const PAGE_SIZE = 50;

export function deps(h: JobHarness, bucket: string) {
  return {
    client: h.client,
    s3: h.s3,
    bucket,
    store: new ReportStore(h.s3, bucket),
    jobs: new JobStore(new StateStore(h.s3, bucket)),
    manifests: new StateStore(h.s3, bucket, ''),
  };
}

/** The day's GSM and site reports as archiveGsmReports archived them into a bucket. */
export interface ArchivedReports {
  bucket: string;
  reports: Awaited<ReturnType<typeof archiveGsmReports>>;
}

/**
 * A fresh bucket with the day's reports archived and its job created. With `from`, the reports
 * are copied from the bucket where an earlier openJob archived them instead of asked of the
 * service again: the service answers a day's reports alike, and the job does not touch them.
 */
export async function openJob(
  h: JobHarness,
  bucket: string,
  from?: ArchivedReports,
): Promise<{ held: HeldJob; archived: ArchivedReports }> {
  await h.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const d = deps(h, bucket);
  let reports: ArchivedReports['reports'];
  if (from) {
    reports = from.reports;
    await Promise.all(
      reports.objects.map((o) =>
        h.s3.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: o.key,
            CopySource: `${from.bucket}/${o.key}`,
          }),
        ),
      ),
    );
  } else reports = await archiveGsmReports(h.client, d.store, h.gsm, undefined);
  const job = newJob({
    gsm: h.gsm,
    day: reports.day,
    snapshotDate: h.snapshotDate,
    sites: reports.sites,
    unidentified: reports.unidentified,
    reports: reports.objects,
    owner: 'first',
    now: Date.now(),
    settings: { siteWalkAbove: 0 },
  });
  const held = await d.jobs.create(job);
  if (!held) throw new Error('job exists');
  return { held, archived: { bucket, reports } };
}

/**
 * The job's settings; its waits before a task runs again (a Retry-After among them) are on the
 * suites' virtual clock, as the client's are: decided, not waited out.
 */
export function settings(extra: Partial<JobSettings> = {}): JobSettings {
  return {
    concurrency: { initial: 4, min: 1, max: 4 },
    gzipLevel: 2,
    partSize: PART_SIZE,
    pageSize: PAGE_SIZE,
    maxTaskAttempts: 1000,
    saveEveryMs: 60_000,
    pauseAt: Number.POSITIVE_INFINITY,
    retryBaseMs: 20,
    retryMaxMs: 200,
    sleep: virtualClock.sleep,
    ...extra,
  };
}

/**
 * Runs a job to its end, one invocation after another; `cutAfter(n)` says after how many pages
 * invocation n must stop (undefined: it may run to the end). Each invocation takes the job on
 * as the archive worker does (a new generation), from what the previous one saved.
 */
export async function runToEnd(
  h: JobHarness,
  bucket: string,
  held: HeldJob,
  cutAfter: (invocation: number) => number | undefined,
  extra: Partial<JobSettings> = {},
): Promise<{ outcome: RunOutcome; invocations: number }> {
  const d = deps(h, bucket);
  let current = held;
  for (let n = 1; ; n++) {
    const limit = cutAfter(n);
    let pages = 0;
    let cut = false;
    const outcome = await runJob(
      d,
      current,
      settings({ now: () => (cut ? Number.POSITIVE_INFINITY : Date.now()), ...extra }),
      {
        onPage: () => {
          pages++;
          if (limit !== undefined && pages >= limit) cut = true;
        },
      },
    );
    if (outcome.ended || jobEnded(outcome.held.job)) return { outcome, invocations: n };
    if (n > 500) throw new Error('the job never ended');
    current = await d.jobs.claim(outcome.held, `invocation-${n + 1}`, Date.now());
  }
}

/** Every object under reports/ as key → ETag, from the listing alone. */
export async function archiveEtags(s3: S3Client, bucket: string): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  for await (const page of paginateListObjectsV2(
    { client: s3 },
    { Bucket: bucket, Prefix: 'reports/' },
  )) {
    for (const o of page.Contents ?? []) etags.set(o.Key ?? '', o.ETag ?? '');
  }
  return etags;
}

async function sha256(s3: S3Client, bucket: string, key: string): Promise<string> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const bytes = await out.Body?.transformToByteArray();
  return createHash('sha256')
    .update(bytes ?? new Uint8Array())
    .digest('hex');
}

/**
 * The keys under reports/ whose stored bytes differ between two buckets, or that only one of
 * them holds. S3 derives an ETag from the bytes it stored (their MD5, or for a multipart
 * upload the MD5 of its parts' MD5s), so objects of equal ETags hold equal bytes and only the
 * others are read and compared by SHA-256.
 */
export async function archiveDiff(
  s3: S3Client,
  bucket: string,
  reference: { bucket: string; etags: Map<string, string> },
): Promise<string[]> {
  const etags = await archiveEtags(s3, bucket);
  const differing: string[] = [];
  for (const key of new Set([...etags.keys(), ...reference.etags.keys()])) {
    const [ours, theirs] = [etags.get(key), reference.etags.get(key)];
    if (ours === theirs) continue;
    if (
      ours === undefined ||
      theirs === undefined ||
      (await sha256(s3, bucket, key)) !== (await sha256(s3, reference.bucket, key))
    )
      differing.push(key);
  }
  return differing.sort();
}

/** Multipart uploads begun and neither completed nor aborted. */
export async function openUploads(s3: S3Client, bucket: string): Promise<number> {
  const out = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return out.Uploads?.length ?? 0;
}
