import {
  type Claim,
  ClaimLostError,
  ConditionalRecords,
  ResumableCheckpointSchema,
  SNAPSHOT_DATASETS,
  type StateStore,
  StorageError,
  type WorkQueue,
} from '../../lib/aws/index.js';
import { SkywatchError } from '../../lib/errors/index.js';
import { LimiterStateSchema } from '../../lib/http/index.js';
import { Day } from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import type { Manifest } from './manifest.js';

/**
 * A report day's whole archive as one job, kept as one state object
 * (`state/report-fetcher/gsm=<GSM>/date=<day>/job.json`) that a single invocation owns at a
 * time: what the day must hold, every task with how it ended or where it stopped, and the
 * concurrency the service allowed so far. A job that nears its invocation's deadline saves
 * itself here and goes on in a fresh invocation (`handOver`); the manifest is written from it
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

/** A job this invocation holds: the claim its next save is conditional on. */
export interface HeldJob {
  job: DayJob;
  claim: Claim;
}

/**
 * Where a day stands for an invocation, from opening it to its line in the log: the one state
 * vocabulary of a run. `held`: this invocation holds the job and runs it. `running`: another
 * invocation holds it and saved it lately. `ended`: every task has ended (the manifest says
 * what the day holds). `paused`: it stopped short and stays saved for the next daily run (a
 * local run, without a queue). `handed-over`: it stopped short and goes on in the archive
 * worker. `taken`: another invocation took it over meanwhile; it is that one's now.
 */
export type DayState =
  | ({ state: 'held' } & HeldJob)
  | { state: 'ended'; job: DayJob; manifest?: Manifest | undefined }
  | { state: 'running' | 'paused' | 'handed-over' | 'taken'; job: DayJob };

/** A day as an invocation leaves it: any state but `held`. */
export type SettledDay = Exclude<DayState, { state: 'held' }>;

/** The job lost to another owner: this invocation must stop working on it at once. */
export class JobTakenError extends SkywatchError {
  constructor(gsm: string, day: string, options?: { cause?: unknown }) {
    super(`the report job of ${gsm} for ${day} is held by another invocation`, options);
    this.name = 'JobTakenError';
  }
}

const jobKey = (gsm: string, day: string) => `report-fetcher/gsm=${gsm}/date=${day}/job.json`;

/**
 * Reads and writes day jobs, each a claim (lib/aws/conditional-record.ts) whose progress is the
 * job. Every write is conditional on the version the writer last saw, so of two invocations
 * that believe they own a job (a duplicate SQS delivery, a redelivery while the first is still
 * running) only one can save; the other gets JobTakenError and stops.
 *
 * A job is never completed as a claim: an ended day is taken on again to retry its failed
 * sites (open-day.ts). Whether a job may be taken on is its callers' rule (`mayTakeOn`, or a
 * `savedAt` older than the stale setting), so a claim here never lapses on its own.
 */
export class JobStore {
  private readonly records: ConditionalRecords<never, DayJob>;

  constructor(state: StateStore) {
    this.records = new ConditionalRecords(state, { result: z.never(), progress: DayJob });
  }

  async read(gsm: string, day: string): Promise<HeldJob | undefined> {
    const seen = await this.records.read(jobKey(gsm, day));
    if (!seen) return undefined;
    const { record, ...claim } = seen;
    if (record.state !== 'pending' || !record.progress)
      throw new StorageError(`State ${seen.key} is a ${record.state} record, not a day job`);
    return { job: record.progress, claim };
  }

  /** A new job; undefined when the day already has one (its owner goes on with it). */
  async create(job: DayJob): Promise<HeldJob | undefined> {
    const claimant = { owner: job.owner, progress: job, leaseMs: Number.POSITIVE_INFINITY };
    const outcome = await this.records.claim(jobKey(job.gsm, job.date), claimant);
    return outcome.kind === 'claimed' ? { job, claim: outcome.claim } : undefined;
  }

  /** Saves a held job; another owner's save in between raises JobTakenError. */
  async save(held: HeldJob, now: number): Promise<HeldJob> {
    const job = { ...held.job, savedAt: now };
    try {
      return { job, claim: await this.records.renew({ ...held.claim, owner: job.owner }, job) };
    } catch (error) {
      throw taken(job, error);
    }
  }

  /**
   * Takes a job on for this invocation: a new generation and owner, saved conditionally. The
   * previous owner, if it still runs, fails its next save and stops.
   */
  async claim(held: HeldJob, owner: string, now: number): Promise<HeldJob> {
    const job: DayJob = {
      ...held.job,
      generation: held.job.generation + 1,
      owner,
      savedAt: now,
      stats: { ...held.job.stats, invocations: held.job.stats.invocations + 1 },
    };
    try {
      return { job, claim: await this.records.takeOver(held.claim, { owner, progress: job }) };
    } catch (error) {
      throw taken(job, error);
    }
  }
}

function taken(job: DayJob, error: unknown): unknown {
  return error instanceof ClaimLostError
    ? new JobTakenError(job.gsm, job.date, { cause: error })
    : error;
}

const KeyCode = z.string().check(z.regex(/^[A-Za-z0-9._-]+$/, 'must be a key code'));

/**
 * "Go on with this day's job": the message an invocation that must stop leaves on the archive
 * queue. It names the job's generation when it was handed over; the archive worker takes the
 * job on only if nobody has since (or if the message is a redelivery of the one that holds it).
 */
export const ContinueMessage = z.object({
  gsm: KeyCode,
  day: Day,
  generation: z.number().check(z.int(), z.minimum(0)),
});
export type ContinueMessage = z.infer<typeof ContinueMessage>;

/** Hands a saved job over to a fresh invocation. */
export async function handOver(queue: WorkQueue<ContinueMessage>, job: DayJob): Promise<void> {
  const sent = await queue.send([{ gsm: job.gsm, day: job.date, generation: job.generation }]);
  const unsent = sent.unsent[0];
  if (unsent)
    throw new Error(`could not hand the job of ${job.gsm} for ${job.date} over: ${unsent.reason}`);
}

/**
 * Whether a message may take the job on: it is the job's latest hand-over, or the redelivery of
 * the one that holds it, or the job has gone stale (its chain broke: a message redriven from the
 * dead-letter queue, which SQS gives a new id, then picks it up again).
 */
export function mayTakeOn(
  job: DayJob,
  message: ContinueMessage,
  messageId: string,
  stale: { now: number; staleMs: number },
): boolean {
  return (
    job.generation === message.generation ||
    job.owner === messageId ||
    stale.now - job.savedAt >= stale.staleMs
  );
}
