import { createHash } from 'node:crypto';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  paginateListObjectsV2,
  type S3Client,
} from '@aws-sdk/client-s3';
import { archiveGsmReports } from '../../../functions/report-fetcher/archive-reports.js';
import { jobEnded } from '../../../functions/report-fetcher/day-job.js';
import { type HeldJob, JobStore } from '../../../functions/report-fetcher/job-store.js';
import { newJob } from '../../../functions/report-fetcher/plan.js';
import {
  type JobSettings,
  type RunOutcome,
  runJob,
} from '../../../functions/report-fetcher/run-job.js';
import { ReportStore, StateStore } from '../../../lib/aws/index.js';
import type { SkywatchClient } from '../../../lib/index.js';

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

/** A fresh bucket with the day's reports archived and its job created. */
export async function openJob(h: JobHarness, bucket: string, siteWalkAbove = 0): Promise<HeldJob> {
  await h.s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const d = deps(h, bucket);
  const reports = await archiveGsmReports(h.client, d.store, h.gsm, undefined);
  const job = newJob({
    gsm: h.gsm,
    day: reports.day,
    snapshotDate: h.snapshotDate,
    sites: reports.sites,
    unidentified: reports.unidentified,
    reports: reports.objects,
    owner: 'first',
    now: Date.now(),
    settings: { siteWalkAbove },
  });
  const held = await d.jobs.create(job);
  if (!held) throw new Error('job exists');
  return held;
}

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

/** SHA-256 of every archived object under reports/, by key. */
export async function archiveHashes(s3: S3Client, bucket: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  for await (const page of paginateListObjectsV2(
    { client: s3 },
    { Bucket: bucket, Prefix: 'reports/' },
  )) {
    for (const o of page.Contents ?? []) {
      const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: o.Key }));
      const bytes = await out.Body?.transformToByteArray();
      hashes.set(
        o.Key ?? '',
        createHash('sha256')
          .update(bytes ?? new Uint8Array())
          .digest('hex'),
      );
    }
  }
  return hashes;
}

/** Multipart uploads begun and neither completed nor aborted. */
export async function openUploads(s3: S3Client, bucket: string): Promise<number> {
  const out = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return out.Uploads?.length ?? 0;
}
