import type { S3Client } from '@aws-sdk/client-s3';
import type { Context } from 'aws-lambda';
import { ReportStore, StateStore, s3Client, sqsClient, WorkQueue } from '../../lib/aws/index.js';
import { AdaptiveLimiter, type Clock, systemClock } from '../../lib/http/index.js';
import { redact, type SkywatchClient } from '../../lib/index.js';
import type { ArchiveEnvValues } from '../shared/env.js';
import {
  type ContinueMessage,
  type DayJob,
  type DayTask,
  entryOf,
  type HeldJob,
  handOver,
  JobStore,
  jobEnded,
  type SettledDay,
} from './day-job.js';
import { type Manifest, settleManifest } from './manifest.js';
import { attemptTask, taskRetryDelay, transient } from './tasks.js';

/**
 * Tasks run at once for each service call the limiter allows. A walk asks nothing of the
 * service while it compresses and stores a page, so with one task a call some call slots would
 * stand idle; a quarter more keeps them busy, the limiter still bounding the calls
 * (docs/performance.md has the figure).
 */
const TASKS_PER_CALL = 1.25;

export interface JobDeps {
  client: SkywatchClient;
  s3: S3Client;
  bucket: string;
  store: ReportStore;
  jobs: JobStore;
  /** Manifests (a StateStore over the bucket root). */
  manifests: StateStore;
  /** The archive queue a job that must stop is handed over on, when the function has one. */
  queue?: WorkQueue<ContinueMessage> | undefined;
}

/**
 * Where the report fetcher and its archive worker read and write, all in the report bucket:
 * the archive, the day jobs (under state/) and the manifests written from them.
 */
export function archiveDeps(env: ArchiveEnvValues, client: SkywatchClient): JobDeps {
  const s3 = s3Client();
  return {
    client,
    s3,
    bucket: env.REPORT_BUCKET,
    store: new ReportStore(s3, env.REPORT_BUCKET, { gzipLevel: env.ARCHIVE_GZIP_LEVEL }),
    jobs: new JobStore(new StateStore(s3, env.REPORT_BUCKET)),
    manifests: new StateStore(s3, env.REPORT_BUCKET, ''),
    queue: env.ARCHIVE_QUEUE_URL
      ? new WorkQueue<ContinueMessage>(sqsClient(), env.ARCHIVE_QUEUE_URL)
      : undefined,
  };
}

export interface JobSettings {
  /** Service calls at once: where a job starts, and the bounds the limiter moves within. */
  concurrency: { initial: number; min: number; max: number };
  /** gzip level of walks' objects. */
  gzipLevel: number;
  /** Bytes of a multipart part (tests only; S3's smallest otherwise). */
  partSize?: number;
  /** Entries a status page (tests only; the service's largest otherwise). */
  pageSize?: number;
  /**
   * First back-off ceiling before a task that failed transiently runs again; doubles per failed
   * attempt, full jitter (`taskRetryDelay`). @default 250
   */
  retryBaseMs?: number;
  /** Largest such ceiling. @default 30000 */
  retryMaxMs?: number;
  /** Attempts a task may fail transiently before it fails for good. */
  maxTaskAttempts: number;
  /** The job is saved at least this often while it runs, so a crash loses little. */
  saveEveryMs: number;
  /** Epoch ms after which no work may start: the invocation's end less a reserve. */
  pauseAt: number;
  now?: () => number;
  /**
   * Waits before a task runs again, a Retry-After of the service's among them. @default the
   * real clock's (lib/http/clock.ts); a test's virtual clock skips them as it does the client's.
   */
  sleep?: Clock['sleep'];
}

/**
 * A job's settings in this invocation: it pauses a reserve before the invocation's end, the
 * setting or a quarter of the time left, whichever is less (a short local invocation still
 * gets most of its time).
 */
export function jobSettings(env: ArchiveEnvValues, context: Context, now: number): JobSettings {
  const max = env.SERVICE_CONCURRENCY;
  const remaining = context.getRemainingTimeInMillis();
  const reserve = Math.min(env.PAUSE_RESERVE_SECONDS * 1000, remaining / 4);
  return {
    // Start at the most: the limiter cuts at the first sign of throttling or slowing down.
    concurrency: { initial: max, min: 1, max },
    gzipLevel: env.ARCHIVE_GZIP_LEVEL,
    maxTaskAttempts: env.TASK_MAX_ATTEMPTS,
    saveEveryMs: env.JOB_SAVE_SECONDS * 1000,
    pauseAt: now + remaining - reserve,
  };
}

export interface JobEvents {
  onPage?(): void;
  /** The limiter cut concurrency: the service throttled, slowed down or timed out. */
  onThrottle?(limit: number, reason: string): void;
  onTaskFailed?(task: DayTask, reason: string): void;
  /** At the end of the invocation: the throttled answers (429, 503) it met. */
  onThrottled?(count: number): void;
}

export interface RunOutcome {
  held: HeldJob;
  /** Every task has ended; the manifest is written. */
  ended: boolean;
  manifest?: Manifest;
  /** Tasks this invocation left for the next one. */
  pending: number;
}

/**
 * Runs a held job until every task has ended or the invocation must stop (`pauseAt`), then
 * saves it; when it has ended, writes the day's manifest. Tasks run a bounded number at a time,
 * every service call through one adaptive limiter, so concurrency shrinks when the service
 * throttles or slows down and grows back after; the limiter's level is saved with the job, so a
 * next invocation starts where this one left off.
 */
export async function runJob(
  deps: JobDeps,
  held: HeldJob,
  settings: JobSettings,
  events: JobEvents = {},
): Promise<RunOutcome> {
  const now = settings.now ?? Date.now;
  const sleep = settings.sleep ?? systemClock.sleep;
  const job: DayJob = structuredClone(held.job);
  let current = held;
  const limiter = new AdaptiveLimiter({
    ...settings.concurrency,
    ...(job.limiter ? { state: job.limiter } : {}),
    now,
    onChange: (limit, reason) => {
      if (reason !== 'increase') events.onThrottle?.(limit, reason);
    },
  });
  const detach = limiter.attach(deps.client);
  // Set when the job is lost to another owner: everything stops as at a pause.
  let lost = false;
  const pausing = () => lost || now() >= settings.pauseAt;
  const taskDeps = {
    ...deps,
    gzipLevel: settings.gzipLevel,
    ...(settings.partSize === undefined ? {} : { partSize: settings.partSize }),
    ...(settings.pageSize === undefined ? {} : { pageSize: settings.pageSize }),
    limiter,
    pauseAt: settings.pauseAt,
    stopping: pausing,
    onPage: () => {
      job.stats.pages++;
      events.onPage?.();
    },
  };
  const retry = {
    ...(settings.retryBaseMs === undefined ? {} : { baseMs: settings.retryBaseMs }),
    ...(settings.retryMaxMs === undefined ? {} : { maxMs: settings.retryMaxMs }),
  };
  let lastSave = now();
  let saving: Promise<void> | undefined;
  // Throttles are counted by the limiter; the job keeps the run's total across invocations.
  const throttlesBefore = job.stats.throttles;
  const save = async () => {
    job.limiter = limiter.save();
    job.stats.throttles = throttlesBefore + limiter.stats().throttles;
    current = await deps.jobs.save({ job: structuredClone(job), claim: current.claim }, now());
    lastSave = now();
  };

  // One attempt; the wait before the task runs again, or undefined when it need not.
  const run = async (task: DayTask): Promise<number | undefined> => {
    if (task.kind === 'walk' && task.checkpoint !== undefined) {
      task.resumptions++;
      job.stats.resumptions++;
    }
    try {
      const object = await attemptTask(taskDeps, job, task);
      if (!object) return undefined;
      task.status = 'done';
      task.object = entryOf(object);
      if (task.kind === 'walk') delete task.checkpoint;
      delete task.reason;
      return undefined;
    } catch (error) {
      const reason = redact(error instanceof Error ? error.message : String(error));
      task.attempts++;
      task.reason = reason;
      if (transient(error) && task.attempts < settings.maxTaskAttempts)
        return taskRetryDelay(task.attempts, error, retry);
      task.status = 'failed';
      events.onTaskFailed?.(task, reason);
      return undefined;
    }
  };

  // Workers take tasks in order; a task that failed transiently goes to the back after a wait.
  const queue = job.tasks.filter((t) => t.status === 'pending');
  const worker = async () => {
    while (!pausing()) {
      const task = queue.shift();
      if (!task) return;
      const waitMs = await run(task);
      if (waitMs !== undefined) {
        await sleep(Math.min(waitMs, Math.max(0, settings.pauseAt - now())));
        queue.push(task);
      }
      if (now() - lastSave >= settings.saveEveryMs && !saving) {
        saving = save().finally(() => {
          saving = undefined;
        });
        await saving;
      }
    }
  };
  try {
    await Promise.all(
      Array.from({ length: Math.ceil(settings.concurrency.max * TASKS_PER_CALL) }, () =>
        worker().catch((error: unknown) => {
          lost = true;
          throw error;
        }),
      ),
    );
  } finally {
    detach();
  }
  await saving;
  await save();
  events.onThrottled?.(limiter.stats().throttles);
  const ended = jobEnded(job);
  if (!ended)
    return {
      held: current,
      ended,
      pending: job.tasks.filter((t) => t.status === 'pending').length,
    };
  const manifest = await settleManifest(deps.manifests, job);
  return { held: current, ended, manifest, pending: 0 };
}

/**
 * Runs a held day in this invocation and, when it has to stop before every task has ended,
 * hands it over to a fresh invocation through the archive queue. Without a queue (a local
 * run) the job stays saved: the next daily run takes it over once it is stale.
 */
export async function runDay(
  deps: JobDeps,
  held: HeldJob,
  settings: JobSettings,
  events: JobEvents,
): Promise<SettledDay> {
  const outcome = await runJob(deps, held, settings, events);
  const { job } = outcome.held;
  if (outcome.ended) return { state: 'ended', job, manifest: outcome.manifest };
  if (!deps.queue) return { state: 'paused', job };
  await handOver(deps.queue, job);
  return { state: 'handed-over', job };
}
