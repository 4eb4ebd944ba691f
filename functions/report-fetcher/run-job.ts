import { setTimeout as sleep } from 'node:timers/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { ReportStore, StateStore } from '../../lib/aws/index.js';
import { AdaptiveLimiter } from '../../lib/http/index.js';
import { redact, type SkywatchClient } from '../../lib/index.js';
import { archiveSite } from './archive-site.js';
import {
  type DayJob,
  type DayTask,
  entryOf,
  jobEnded,
  type SiteReportTask,
  type WalkTask,
} from './day-job.js';
import type { HeldJob, JobStore } from './job-store.js';
import { type Manifest, settleManifest } from './manifest.js';
import { taskRetryDelay, transient } from './task-errors.js';
import { runWalk } from './walk-task.js';

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
   * attempt, full jitter (task-errors.ts). @default 250
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
  const day = job.snapshotDate ?? job.date;
  const walkDeps = {
    client: deps.client,
    s3: deps.s3,
    bucket: deps.bucket,
    gzipLevel: settings.gzipLevel,
    ...(settings.partSize === undefined ? {} : { partSize: settings.partSize }),
    ...(settings.pageSize === undefined ? {} : { pageSize: settings.pageSize }),
    limiter,
    pauseAt: settings.pauseAt,
    stopping: () => pausing(),
    onPage: () => {
      job.stats.pages++;
      events.onPage?.();
    },
  };

  const queue = job.tasks.filter((t) => t.status === 'pending');
  const retry = {
    ...(settings.retryBaseMs === undefined ? {} : { baseMs: settings.retryBaseMs }),
    ...(settings.retryMaxMs === undefined ? {} : { maxMs: settings.retryMaxMs }),
  };
  // Set when the job is lost to another owner: everything stops as at a pause.
  let lost = false;
  const pausing = () => lost || now() >= settings.pauseAt;
  let lastSave = now();
  let saving: Promise<void> | undefined;
  // Throttles are counted by the limiter; the job keeps the run's total across invocations.
  const throttlesBefore = job.stats.throttles;
  const save = async () => {
    job.limiter = limiter.save();
    job.stats.throttles = throttlesBefore + limiter.stats().throttles;
    current = await deps.jobs.save({ job: structuredClone(job), etag: current.etag }, now());
    lastSave = now();
  };

  // The wait before the task runs again, or undefined when it has failed for good.
  const fail = (task: DayTask, error: unknown): number | undefined => {
    const reason = redact(error instanceof Error ? error.message : String(error));
    task.attempts++;
    task.reason = reason;
    if (!transient(error) || task.attempts >= settings.maxTaskAttempts) {
      task.status = 'failed';
      events.onTaskFailed?.(task, reason);
      return undefined;
    }
    return taskRetryDelay(task.attempts, error, retry);
  };

  const runSiteReport = async (task: SiteReportTask) => {
    try {
      const object = await limiter.run(() =>
        archiveSite(
          deps.client,
          deps.store,
          { gsm: job.gsm, site: task.site, day: job.date },
          {
            deadline: settings.pauseAt,
          },
        ),
      );
      task.status = 'done';
      task.object = entryOf(object);
      delete task.reason;
      return undefined;
    } catch (error) {
      if (pausing()) return undefined;
      return fail(task, error);
    }
  };

  const runWalkTask = async (task: WalkTask) => {
    const resumed = task.checkpoint !== undefined;
    if (resumed) {
      task.resumptions++;
      job.stats.resumptions++;
    }
    const outcome = await runWalk(walkDeps, job.gsm, day, task).catch((error: unknown) => ({
      kind: 'failed' as const,
      error,
      checkpoint: task.checkpoint,
    }));
    if (outcome.kind === 'done') {
      task.status = 'done';
      task.object = entryOf(outcome.object);
      delete task.checkpoint;
      delete task.reason;
      return undefined;
    }
    if (outcome.checkpoint) task.checkpoint = outcome.checkpoint;
    if (outcome.kind === 'paused') return undefined;
    return fail(task, outcome.error);
  };

  // Workers take tasks in order; a task that failed transiently goes to the back after a wait.
  const worker = async () => {
    while (!pausing()) {
      const task = queue.shift();
      if (!task) return;
      const waitMs = task.kind === 'walk' ? await runWalkTask(task) : await runSiteReport(task);
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
