import { ResumableCheckpointSchema, SNAPSHOT_DATASETS } from '../../lib/aws/index.js';
import { LimiterStateSchema } from '../../lib/http/index.js';
import * as z from '../../lib/zod.js';

/**
 * A report day's whole archive as one job, kept as one state object
 * (`state/report-fetcher/gsm=<GSM>/date=<day>/job.json`) that a single invocation owns at a
 * time: what the day must hold, every task with how it ended or where it stopped, and the
 * concurrency the service allowed so far. A job that nears its invocation's deadline saves
 * itself here and goes on in a fresh invocation (continue.ts); the manifest is written from it
 * once every task has ended (manifest.ts).
 */
export const ArchivedObjectEntry = z.object({
  key: z.string(),
  bytes: z.number(),
  records: z.number(),
  sha256: z.string(),
});
export type ArchivedObjectEntry = z.infer<typeof ArchivedObjectEntry>;

/** What a job keeps of an object the store wrote. */
export function entryOf({ key, bytes, records, sha256 }: ArchivedObjectEntry): ArchivedObjectEntry {
  return { key, bytes, records, sha256 };
}

const TaskStatus = z.enum(['pending', 'done', 'failed']);
const TaskHead = {
  /** Unique in the job, e.g. `dnsp-usage/SITE`, `agent-status/SITE`, `agent-status/console`. */
  id: z.string(),
  status: TaskStatus,
  /** Attempts that ended in a transient failure (throttling, timeouts) or a failure. */
  attempts: z.number().check(z.int(), z.minimum(0)),
  /** Why the last attempt failed (redacted). */
  reason: z.optional(z.string()),
  object: z.optional(ArchivedObjectEntry),
};

/** A site's DNSP usage report (4.8): one call, one small object. */
export const SiteReportTask = z.object({
  ...TaskHead,
  kind: z.literal('site-report'),
  site: z.string(),
});

/**
 * A status snapshot walk (4.3/4.4 for the console, 4.1/4.2 for a site): pages into one object,
 * with where it stopped when an invocation ended mid-walk.
 */
export const WalkTask = z.object({
  ...TaskHead,
  kind: z.literal('walk'),
  dataset: z.enum(SNAPSHOT_DATASETS),
  /** Absent for a walk of the whole console. */
  site: z.optional(z.string()),
  /** Endpoints the usage report gave the site (or the console): bigger walks start first. */
  expected: z.number(),
  checkpoint: z.optional(ResumableCheckpointSchema),
  /** Times this walk went on from a checkpoint in a later invocation. */
  resumptions: z.number().check(z.int(), z.minimum(0)),
});

export const DayTask = z.discriminatedUnion('kind', [SiteReportTask, WalkTask]);
export type SiteReportTask = z.infer<typeof SiteReportTask>;
export type WalkTask = z.infer<typeof WalkTask>;
export type DayTask = z.infer<typeof DayTask>;

export const DayJob = z.object({
  schema: z.literal('skywatch.day-job/v1'),
  gsm: z.string(),
  date: z.string(),
  /** The day of the status snapshots (daily runs), or null for a backfilled day. */
  snapshotDate: z.nullable(z.string()),
  /** Site keys of the sites report (4.6), sorted: the sites the day must have. */
  sites: z.array(z.string()),
  /** The GSM and site-usage reports, written when the job was created. */
  reports: z.array(ArchivedObjectEntry),
  tasks: z.array(DayTask),
  /** Bumped by each invocation that takes the job on: an older owner's save then fails. */
  generation: z.number().check(z.int(), z.minimum(0)),
  /** Who holds the job: the request id or message id of the invocation running it. */
  owner: z.string(),
  /** Epoch ms of the last save: an unfinished job not saved for long has lost its owner. */
  savedAt: z.number(),
  /** The concurrency the service allowed when the job was last saved. */
  limiter: z.optional(LimiterStateSchema),
  stats: z.object({
    invocations: z.number(),
    resumptions: z.number(),
    pages: z.number(),
    throttles: z.number(),
  }),
});
export type DayJob = z.infer<typeof DayJob>;

/** Every task has ended (archived or failed for good). */
export function jobEnded(job: DayJob): boolean {
  return job.tasks.every((t) => t.status !== 'pending');
}

export function jobKey(gsm: string, day: string): string {
  return `report-fetcher/gsm=${gsm}/date=${day}/job.json`;
}
