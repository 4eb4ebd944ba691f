import type { S3Client } from '@aws-sdk/client-s3';
import { JobStore, type WalkTask } from '../functions/report-fetcher/day-job.js';
import { archiveGsmReports, newJob, planWalks } from '../functions/report-fetcher/open-day.js';
import { runJob } from '../functions/report-fetcher/run-job.js';
import { SNAPSHOT_PAGE_SIZE } from '../functions/report-fetcher/tasks.js';
import { ReportStore, StateStore } from '../lib/aws/index.js';
import { AdaptiveLimiter } from '../lib/http/index.js';
import type { Page, SkywatchClient } from '../lib/index.js';

/**
 * A day's snapshot walks as the report fetcher runs them (its job, site reports left out: they
 * are not what is measured), and the same walks downloaded and discarded: the two sides of the
 * archive and realistic-latency benchmarks.
 */
export interface Setup {
  client: SkywatchClient;
  s3: S3Client;
  bucket: string;
  gsm: string;
  concurrency: number;
  /** Console size above which walks go site by site (the function's default). */
  siteWalkAbove?: number;
}

/** The day's usage reports, as the job's opening reads them (and archives them, when it writes). */
export async function reachWalks(setup: Setup, write: boolean) {
  const store = write
    ? new ReportStore(setup.s3, setup.bucket)
    : ({ writeRecords: async () => ({}) } as unknown as ReportStore);
  const reports = await archiveGsmReports(setup.client, store, setup.gsm, undefined);
  return { reports, store };
}

export interface ArchivedDay {
  endpoints: number;
  bytes: number;
  invocations: number;
  longestInvocationMs: number;
  resumptions: number;
  pages: number;
  walks: number;
  complete: boolean;
  throttles: number;
}

/**
 * Runs the walks in invocations of `invocationMs` (Infinity: one), each stopping a reserve
 * before its end (as the functions do) and the next taking the saved job on. `onInvocation`
 * is told when each begins, so the caller can bound its client's calls by it.
 */
export async function archiveWalks(
  setup: Setup,
  opened: Awaited<ReturnType<typeof reachWalks>>,
  invocationMs: number,
  onInvocation: (endsAt: number) => void = () => {},
): Promise<ArchivedDay> {
  const jobs = new JobStore(new StateStore(setup.s3, setup.bucket));
  const { reports, store } = opened;
  const job = newJob({
    gsm: setup.gsm,
    day: reports.day,
    snapshotDate: '2026-06-15',
    sites: reports.sites,
    unidentified: reports.unidentified,
    reports: reports.objects,
    owner: 'invocation-1',
    now: Date.now(),
    settings: { siteWalkAbove: setup.siteWalkAbove ?? 100_000 },
  });
  job.tasks = job.tasks.filter((t) => t.kind === 'walk');
  const created = await jobs.create(job);
  if (!created) throw new Error('the job exists already');
  const deps = {
    client: setup.client,
    s3: setup.s3,
    bucket: setup.bucket,
    store,
    jobs,
    manifests: new StateStore(setup.s3, setup.bucket, ''),
  };
  const reserveMs = Math.min(60_000, invocationMs / 4);
  const durations: number[] = [];
  let held = created;
  for (;;) {
    const begun = Date.now();
    onInvocation(begun + invocationMs);
    const outcome = await runJob(deps, held, {
      concurrency: { initial: setup.concurrency, min: 1, max: setup.concurrency },
      gzipLevel: 2,
      maxTaskAttempts: 20,
      saveEveryMs: 60_000,
      pauseAt: begun + invocationMs - reserveMs,
    });
    durations.push(Date.now() - begun);
    const { job: saved } = outcome.held;
    if (outcome.ended) {
      const walks = saved.tasks.filter((t) => t.kind === 'walk');
      return {
        endpoints: walks
          .filter((t) => t.dataset === 'agent-status')
          .reduce((n, t) => n + (t.object?.records ?? 0), 0),
        bytes: walks.reduce((n, t) => n + (t.object?.bytes ?? 0), 0),
        invocations: durations.length,
        longestInvocationMs: Math.max(...durations),
        resumptions: saved.stats.resumptions,
        pages: saved.stats.pages,
        walks: walks.length,
        complete: outcome.manifest?.snapshots.failed.length === 0,
        throttles: saved.stats.throttles,
      };
    }
    if (durations.length > 500) throw new Error('the job never ended');
    held = await jobs.claim(outcome.held, `invocation-${durations.length + 1}`, Date.now());
  }
}

/**
 * A walk's page as a reader of the snapshot gets it (the alerters' way): typed, each entry
 * validated. The archive keeps entries unread, which is part of what it is measured against.
 */
function readPage(
  client: SkywatchClient,
  gsm: string,
  walk: WalkTask,
  options: { batchSize: number; continuation?: string },
): Promise<Page<unknown>> {
  const agent = walk.dataset === 'agent-status';
  const pages =
    walk.site === undefined
      ? (agent ? client.gsmAgentStatus : client.gsmDnspStatus).call(client, gsm, options)
      : (agent ? client.siteAgentStatus : client.siteDnspStatus).call(client, walk.site, options);
  return pages.firstPage() as Promise<Page<unknown>>;
}

/** The same walks, each page read through the same limiter and dropped. */
export async function downloadWalks(
  setup: Setup,
  opened: Awaited<ReturnType<typeof reachWalks>>,
): Promise<{ endpoints: number; pages: number }> {
  const { reports } = opened;
  const walks: WalkTask[] = planWalks(reports.sites, reports.unidentified, {
    siteWalkAbove: setup.siteWalkAbove ?? 100_000,
  });
  const { concurrency } = setup;
  const limiter = new AdaptiveLimiter({ initial: concurrency, min: 1, max: concurrency });
  const detach = limiter.attach(setup.client);
  let pages = 0;
  let endpoints = 0;
  const fetchPage = (walk: WalkTask, continuation: string | undefined) =>
    readPage(setup.client, setup.gsm, walk, {
      batchSize: SNAPSHOT_PAGE_SIZE,
      ...(continuation ? { continuation } : {}),
    });
  const worker = async () => {
    for (let walk = walks.shift(); walk; walk = walks.shift()) {
      // Nothing is done with a page here, so the next is asked for at once (the archive's
      // order too, for a console's walk prefetches and a site's asks after its page is stored).
      let next: Promise<Page<unknown>> | undefined = limiter.run(() => fetchPage(walk, undefined));
      while (next) {
        const page: Page<unknown> = await next;
        const token: string | undefined = page.continuationToken ?? undefined;
        next = token !== undefined ? limiter.run(() => fetchPage(walk, token)) : undefined;
        pages++;
        if (walk.dataset === 'agent-status') endpoints += page.entries.length;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    detach();
  }
  return { endpoints, pages };
}
