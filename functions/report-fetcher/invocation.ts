import type { Context } from 'aws-lambda';
import type { ArchiveEnvValues } from './archive-env.js';
import { handOver } from './continue.js';
import type { DayState } from './job-report.js';
import type { HeldJob } from './job-store.js';
import { type JobEvents, type JobSettings, type RunOutcome, runJob } from './run-job.js';
import type { ArchiveDeps } from './stores.js';

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

/**
 * Runs a held job in this invocation and, when it has to stop before every task has ended,
 * hands it over to a fresh invocation through the archive queue. Without a queue (a local
 * run) the job stays saved: the next daily run takes it over once it is stale.
 */
export async function runAndHandOver(
  deps: ArchiveDeps,
  held: HeldJob,
  settings: JobSettings,
  events: JobEvents,
): Promise<RunOutcome & { state: DayState }> {
  const outcome = await runJob(deps, held, settings, events);
  if (outcome.ended) return { ...outcome, state: 'ended' };
  if (!deps.queue) return { ...outcome, state: 'paused' };
  await handOver(deps.queue, outcome.held.job);
  return { ...outcome, state: 'handed-over' };
}
