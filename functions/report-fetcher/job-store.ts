import {
  ClaimLostError,
  ConditionalRecords,
  type StateStore,
  StorageError,
} from '../../lib/aws/index.js';
import { SkywatchError } from '../../lib/errors/index.js';
import * as z from '../../lib/zod.js';
import { DayJob, jobKey } from './day-job.js';

/** The job lost to another owner: this invocation must stop working on it at once. */
export class JobTakenError extends SkywatchError {
  constructor(gsm: string, day: string, options?: { cause?: unknown }) {
    super(`the report job of ${gsm} for ${day} is held by another invocation`, options);
    this.name = 'JobTakenError';
  }
}

/** A job read with the ETag its next save is conditional on. */
export interface HeldJob {
  job: DayJob;
  etag: string;
}

/**
 * Reads and writes day jobs, each a claim (lib/aws/conditional-record.ts) whose progress is the
 * job. Every write is conditional on the ETag the writer last saw, so of two invocations that
 * believe they own a job (a duplicate SQS delivery, a redelivery while the first is still
 * running) only one can save; the other gets JobTakenError and stops.
 *
 * A job is never completed as a claim: an ended day is taken on again to retry its failed
 * sites (open-day.ts). Whether a job may be taken on is its callers' rule (a hand-over's
 * generation, the same owner, or a `savedAt` older than the stale setting), so a claim here
 * never lapses on its own.
 */
export class JobStore {
  private readonly records: ConditionalRecords<never, DayJob>;

  constructor(state: StateStore) {
    this.records = new ConditionalRecords(state, { result: z.never(), progress: DayJob });
  }

  async read(gsm: string, day: string): Promise<HeldJob | undefined> {
    const seen = await this.records.read(jobKey(gsm, day));
    if (!seen) return undefined;
    if (seen.record.state !== 'pending' || !seen.record.progress)
      throw new StorageError(`State ${seen.key} is a ${seen.record.state} record, not a day job`);
    return { job: seen.record.progress, etag: seen.etag };
  }

  /** A new job; undefined when the day already has one (its owner goes on with it). */
  async create(job: DayJob): Promise<HeldJob | undefined> {
    const claimant = { owner: job.owner, progress: job, leaseMs: Number.POSITIVE_INFINITY };
    const outcome = await this.records.claim(jobKey(job.gsm, job.date), claimant);
    return outcome.kind === 'claimed' ? { job, etag: outcome.claim.etag } : undefined;
  }

  /** Saves a held job; another owner's save in between raises JobTakenError. */
  async save(held: HeldJob, now: number): Promise<HeldJob> {
    const job = { ...held.job, savedAt: now };
    const claim = { key: jobKey(job.gsm, job.date), etag: held.etag, owner: job.owner };
    try {
      return { job, etag: (await this.records.renew(claim, job)).etag };
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
    const seen = { key: jobKey(job.gsm, job.date), etag: held.etag };
    try {
      return { job, etag: (await this.records.takeOver(seen, { owner, progress: job })).etag };
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
