import { ConflictError, type StateStore } from '../../lib/aws/index.js';
import { DayJob, jobKey } from './day-job.js';

/** The job lost to another owner: this invocation must stop working on it at once. */
export class JobTakenError extends Error {
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
 * Reads and writes day jobs. Every write is conditional on the ETag the writer last saw, so of
 * two invocations that believe they own a job (a duplicate SQS delivery, a redelivery while the
 * first is still running) only one can save; the other gets JobTakenError and stops.
 */
export class JobStore {
  constructor(private readonly state: StateStore) {}

  async read(gsm: string, day: string): Promise<HeldJob | undefined> {
    const found = await this.state.get(jobKey(gsm, day), DayJob);
    return found && { job: found.value, etag: found.etag };
  }

  /** A new job; undefined when the day already has one (its owner goes on with it). */
  async create(job: DayJob): Promise<HeldJob | undefined> {
    try {
      const etag = await this.state.put(jobKey(job.gsm, job.date), job, { ifNoneMatch: true });
      return { job, etag };
    } catch (error) {
      if (error instanceof ConflictError) return undefined;
      throw error;
    }
  }

  /** Saves a held job; another owner's save in between raises JobTakenError. */
  async save(held: HeldJob, now: number): Promise<HeldJob> {
    const job = { ...held.job, savedAt: now };
    try {
      const etag = await this.state.put(jobKey(job.gsm, job.date), job, { ifMatch: held.etag });
      return { job, etag };
    } catch (error) {
      if (error instanceof ConflictError)
        throw new JobTakenError(job.gsm, job.date, { cause: error });
      throw error;
    }
  }

  /**
   * Takes a job on for this invocation: a new generation and owner, saved conditionally. The
   * previous owner, if it still runs, fails its next save and stops.
   */
  async claim(held: HeldJob, owner: string, now: number): Promise<HeldJob> {
    return this.save(
      {
        ...held,
        job: {
          ...held.job,
          generation: held.job.generation + 1,
          owner,
          stats: { ...held.job.stats, invocations: held.job.stats.invocations + 1 },
        },
      },
      now,
    );
  }
}
