import type { S3Client } from '@aws-sdk/client-s3';
import {
  type ArchivedObject,
  DNSP_REPORT_TYPE,
  dnspUsageKey,
  type ReportStore,
  type ResumableCheckpoint,
  ResumableObjectWriter,
  StorageError,
  snapshotKey,
  UploadGoneError,
} from '../../lib/aws/index.js';
import {
  type AdaptiveLimiter,
  DEFAULT_RETRY,
  isRetryableStatus,
  type RetryOptions,
  retryDelay,
} from '../../lib/http/index.js';
import {
  type CallOptions,
  HttpError,
  NetworkError,
  type PageFetcher,
  Paginator,
  RateLimitError,
  type SkywatchClient,
  serviceValue,
  TimeoutError,
  type UsageReportSiteDNSP,
} from '../../lib/index.js';
import type { DayJob, DayTask, WalkTask } from './day-job.js';

/** Entries per status page: the service's largest. */
export const SNAPSHOT_PAGE_SIZE = 1000;

/** What a task's attempt works with: the job's limiter, its stores, the invocation's pause. */
export interface TaskDeps {
  client: SkywatchClient;
  s3: S3Client;
  bucket: string;
  store: ReportStore;
  gzipLevel: number;
  /** Bytes of a multipart part (S3's smallest unless a test says otherwise). */
  partSize?: number;
  /** Entries a page. @default SNAPSHOT_PAGE_SIZE */
  pageSize?: number;
  limiter: AdaptiveLimiter;
  /** Epoch ms at which calls still running are cut: the invocation's pause. */
  pauseAt: number;
  /** True once no work may start: the pause came, or the job was lost to another owner. */
  stopping: () => boolean;
  /** Told of each page archived. */
  onPage?: () => void;
}

/** The work for one site: its DNSP usage report (4.8) for a day. */
export interface SiteTask {
  gsm: string;
  site: string;
  day: string;
}

/** The service half of a site's work. */
export function fetchSite(
  client: SkywatchClient,
  task: SiteTask,
  call: CallOptions = {},
): Promise<UsageReportSiteDNSP> {
  return client.siteDnspUsageReport(task.gsm, task.site, {
    ...call,
    reportType: DNSP_REPORT_TYPE,
    effectiveDate: task.day,
  });
}

/** The storage half of a site's work. */
export function storeSite(
  store: ReportStore,
  task: SiteTask,
  report: UsageReportSiteDNSP,
): Promise<ArchivedObject> {
  // The service's own value: a field the reader left out is still archived.
  return store.writeRecords(dnspUsageKey(task.gsm, task.day, task.site), [serviceValue(report)], {
    operation: '4.8',
    gsm: task.gsm,
    site: task.site,
  });
}

/**
 * One attempt at a task of the day's job: the object it archived, or undefined when the
 * invocation's pause cut it (a walk's checkpoint on the task then says where to go on). A
 * failure throws; a walk keeps the parts it uploaded in its checkpoint for the next attempt.
 */
export async function attemptTask(
  deps: TaskDeps,
  job: DayJob,
  task: DayTask,
): Promise<ArchivedObject | undefined> {
  if (task.kind === 'walk') return walk(deps, job.gsm, job.snapshotDate ?? job.date, task);
  const site = { gsm: job.gsm, site: task.site, day: job.date };
  try {
    const call = { deadline: deps.pauseAt };
    return await deps.limiter.run(async () =>
      storeSite(deps.store, site, await fetchSite(deps.client, site, call)),
    );
  } catch (error) {
    // Cut by the pause (its call's deadline) or by the job's loss: the next owner goes on.
    if (deps.stopping()) return undefined;
    throw error;
  }
}

const OPERATION = {
  'agent-status': { console: '4.3', site: '4.1' },
  'dnsp-status': { console: '4.4', site: '4.2' },
} as const;

/**
 * One page of a walk: the console's 4.3 or 4.4, or a site's 4.1 or 4.2, as the task says, each
 * call through the job's limiter and cut at the invocation's pause. The entries are kept as the
 * service sent them, never read, so they are not validated either (the functions that read them
 * count their surprises); the envelope is checked as always.
 */
function pageFetcher(deps: TaskDeps, gsm: string, task: WalkTask): PageFetcher<unknown> {
  const of = {
    kind: task.site === undefined ? 'gsm' : 'site',
    status: task.dataset === 'agent-status' ? 'agent' : 'dnsp',
    keyCode: task.site ?? gsm,
  } as const;
  const batchSize = deps.pageSize ?? SNAPSHOT_PAGE_SIZE;
  return (continuation) =>
    deps.limiter.run(() =>
      deps.client
        .statusAsSent(of, {
          batchSize,
          deadline: deps.pauseAt,
          ...(continuation === undefined ? {} : { continuation }),
        })
        .firstPage(),
    );
}

/** Where a writer's walk goes on: the start (null), a continuation, or only its finish. */
function resumePoint(checkpoint: ResumableCheckpoint): string | null | 'end' {
  if (checkpoint.pages === 0) return null;
  return checkpoint.continuation ?? 'end';
}

async function openWriter(
  deps: TaskDeps,
  key: string,
  metadata: Record<string, string>,
  checkpoint: ResumableCheckpoint | undefined,
): Promise<ResumableObjectWriter> {
  if (checkpoint) {
    try {
      // The checkpoint carries the level, part size and metadata the walk began with.
      return await ResumableObjectWriter.resume(deps.s3, deps.bucket, checkpoint);
    } catch (error) {
      // The upload was cleaned up (lifecycle, abort): the walk starts again from its first page.
      if (!(error instanceof UploadGoneError)) throw error;
    }
  }
  return ResumableObjectWriter.start(deps.s3, deps.bucket, key, {
    gzipLevel: deps.gzipLevel,
    metadata,
    ...(deps.partSize === undefined ? {} : { partSize: deps.partSize }),
  });
}

/**
 * One snapshot walk, from its checkpoint when it has one, page after page into its object (the
 * next page fetched while the current one is compressed) until the last page, the invocation's
 * pause, or a failure. Each page's entries are archived as the service wrote them. Parts are cut
 * by content alone, so a walk resumed from a checkpoint writes the bytes an uninterrupted walk
 * would have written.
 */
async function walk(
  deps: TaskDeps,
  gsm: string,
  day: string,
  task: WalkTask,
): Promise<ArchivedObject | undefined> {
  const key = snapshotKey(task.dataset, gsm, day, task.site);
  const metadata = {
    operation: OPERATION[task.dataset][task.site === undefined ? 'console' : 'site'],
    gsm,
    ...(task.site === undefined ? {} : { site: task.site }),
  };
  let writer = await openWriter(deps, key, metadata, task.checkpoint);
  const resumedFrom = resumePoint(writer.checkpoint());
  if (resumedFrom === 'end') return writer.finish();
  const pages = new Paginator(pageFetcher(deps, gsm, task), {
    continuation: resumedFrom,
    // A console's walk asks for its next page while this one is compressed. Site walks run
    // many at once, which keeps the service busy already; one page each bounds memory.
    prefetch: task.site === undefined,
    budget: { spent: deps.stopping },
    // The saved continuation is refused: no half object, the walk starts over.
    onRefusedContinuation: async () => {
      await writer.abort();
      writer = await openWriter(deps, key, metadata, undefined);
    },
  });
  try {
    for await (const page of pages.pages()) {
      await writer.addPage(page.entryTexts(), page.continuationToken);
      deps.onPage?.();
    }
    if (pages.reachedEnd) return await writer.finish();
    task.checkpoint = await writer.settle();
    return undefined;
  } catch (error) {
    await pages.settled();
    if (deps.stopping()) {
      task.checkpoint = await writer.settle();
      return undefined;
    }
    task.checkpoint = await writer.settle().catch(() => writer.checkpoint());
    throw error;
  }
}

/**
 * Whether a task that failed this way may succeed later in the same job: an answer the
 * project's retry policy retries (lib/http/retry.ts: 408, 429, 500, 502, 503, 504), S3 having
 * a bad minute, a timeout, a broken connection. Those go back to the job's queue and the day
 * finishes later; anything else (a refused request, a 501, an answer that breaks its schema)
 * fails the task at once, with its reason in the manifest.
 */
export function transient(error: unknown): boolean {
  if (error instanceof HttpError) return isRetryableStatus(error.status);
  return (
    error instanceof TimeoutError || error instanceof NetworkError || error instanceof StorageError
  );
}

/** Back-off between a task's attempts: the retry policy's shape, over a job's longer waits. */
export interface TaskRetryOptions {
  /** First back-off ceiling in ms; doubles per failed attempt. @default 250 */
  baseMs?: number;
  /** Largest back-off ceiling in ms. @default 30000 */
  maxMs?: number;
  random?: () => number;
}

/**
 * The wait before a task that has failed transiently `attempts` times runs again: the
 * service's Retry-After when it gave one, else full jitter (lib/http/retry.ts `retryDelay`),
 * with the larger first ceiling after a 429. The client has already retried the call itself,
 * so these ceilings are the job's, wider than one call's.
 *
 * @example
 * taskRetryDelay(2, new TimeoutError('slow', 'attempt')); // 0..500 ms
 */
export function taskRetryDelay(
  attempts: number,
  error: unknown,
  options: TaskRetryOptions = {},
): number {
  const policy: Required<RetryOptions> = {
    ...DEFAULT_RETRY,
    baseDelayMs: options.baseMs ?? 250,
    maxDelayMs: options.maxMs ?? 30_000,
  };
  const status = error instanceof HttpError ? error.status : undefined;
  const retryAfterMs = error instanceof RateLimitError ? error.retryAfter : undefined;
  return retryDelay(attempts, status, retryAfterMs, policy, options.random ?? Math.random);
}
