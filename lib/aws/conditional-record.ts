import { SkywatchError } from '../errors/index.js';
import * as z from '../zod.js';
import { ConflictError } from './errors.js';
import type { StateStore } from './state-store.js';

/**
 * Claims on state records: the one way Skywatch makes a piece of work happen once when two
 * runs may race for it (a webhook delivered twice, an event a notifier receives twice, a day
 * job two invocations believe they own). The protocol, stated here once:
 *
 * - **claim**: create the record If-None-Match, `pending`, stamped with its owner, `claimedAt`
 *   and, when the work is for a payload, the payload's digest. Of racing claimers one creates it.
 * - A claimer that finds the record hears what it holds: `done` with the stored result (never
 *   run again), `held` by a live claim, or `mismatch` (claimed or done for another payload).
 * - **take over**: a pending claim whose lease ran out (`claimedAt + leaseMs`, the reader's
 *   lease), or a released one, is rewritten If-Match on the ETag that was read: of racing
 *   takers exactly one wins; the others hear `held`.
 * - **complete**, **release** and **renew** are writes If-Match on the holder's ETag: a holder
 *   that outlived its lease and was taken over gets ClaimLostError and must stop. Release
 *   leaves a `released` record that any claimer takes at once; renew saves progress and
 *   restarts the lease.
 *
 * Why not Powertools Idempotency: it has no S3 persistence layer, and one would not fit. Its
 * DynamoDB layer takes over an expired record with one conditional put over the record's own
 * fields; S3 compares ETags only, so a takeover is read-then-If-Match, and `_putRecord(record)`
 * has no place for the ETag read. Its success and delete writes are unconditional, so a holder
 * that outlived its lease would overwrite the taker's record, the very race refused here. And
 * it caches one function's return, while a day job keeps its claim, with progress, across
 * invocations, and a notifier's refused event is claimed again when an operator redrives it.
 */

/** A record as stored. `progress` is what a long holder saved so far (a day job). */
export type StoredRecord<R, P = never> =
  | { state: 'pending'; claimedAt: string; owner?: string; digest?: string; progress?: P }
  | { state: 'done'; completedAt?: string; owner?: string; digest?: string; result: R }
  | { state: 'released'; releasedAt?: string; owner?: string };

/** A record as read, with the ETag a write over it is conditional on. */
export interface SeenRecord<R, P = never> {
  key: string;
  etag: string;
  record: StoredRecord<R, P>;
}

/** A claim held: what its next write (complete, release, renew) is conditional on. */
export interface Claim {
  key: string;
  etag: string;
  owner?: string | undefined;
  /** The payload digest the claim is for; kept on the done record. */
  digest?: string | undefined;
}

export interface Claimant<R, P = never> {
  /** Who claims: a request id, a message id. For people and for callers resuming their own. */
  owner: string;
  /** A pending claim this old is abandoned (its Lambda is gone) and may be taken over. */
  leaseMs: number;
  /** The digest of the payload the work is for: a record for another payload is a mismatch. */
  digest?: string | undefined;
  progress?: P | undefined;
  /** Claims a done record again when this answers true for its result (an operator's redrive). */
  reopen?: ((result: R) => boolean) | undefined;
}

export type ClaimOutcome<R> =
  | { kind: 'claimed'; claim: Claim }
  /** Done before: here is what it answered. The work must not run again. */
  | { kind: 'done'; result: R }
  /** Another owner's claim is live: try again after its lease. */
  | { kind: 'held'; owner: string | undefined }
  /** Claimed or done for another payload: never a replay of another payload's result. */
  | { kind: 'mismatch' };

type Stamp = { owner?: string | undefined; digest?: string | undefined };
type Action = 'complete' | 'release' | 'renew' | 'take over';

/**
 * A write over a claim lost to another writer: the claim was taken over after its lease (or
 * completed or released by someone else). The holder must stop working on it.
 */
export class ClaimLostError extends SkywatchError {
  constructor(
    readonly key: string,
    readonly action: Action,
    options?: { cause?: unknown },
  ) {
    super(
      `Cannot ${action} the claim on ${key}: the record changed since it was read (taken over after its lease, or completed or released by another run); stop working on it`,
      options,
    );
    this.name = 'ClaimLostError';
  }
}

function recordSchema<R, P>(
  result: z.core.$ZodType<R>,
  progress: z.core.$ZodType<P> | undefined,
): z.core.$ZodType<StoredRecord<R, P>> {
  const stamp = { owner: z.optional(z.string()), digest: z.optional(z.string()) };
  return z.discriminatedUnion('state', [
    z.object({
      state: z.literal('pending'),
      claimedAt: z.iso.datetime(),
      ...stamp,
      progress: z.optional(progress ?? z.never()),
    }),
    z.object({
      state: z.literal('done'),
      completedAt: z.optional(z.iso.datetime()),
      ...stamp,
      result,
    }),
    z.object({
      state: z.literal('released'),
      releasedAt: z.optional(z.iso.datetime()),
      owner: stamp.owner,
    }),
  ]) as unknown as z.core.$ZodType<StoredRecord<R, P>>;
}

/**
 * The records of one kind of work in a StateStore, their results (and a long holder's progress)
 * validated with zod when read.
 *
 * @example
 * const sends = new ConditionalRecords(state, { result: z.enum(['sent', 'rejected']) });
 * const got = await sends.claim(`notifier/slack/${id}.json`, { owner: requestId, leaseMs: 60_000 });
 * if (got.kind === 'claimed') {
 *   await post(alert);
 *   await sends.complete(got.claim, 'sent'); // ClaimLostError: taken over meanwhile
 * }
 */
export class ConditionalRecords<R, P = never> {
  private readonly schema: z.core.$ZodType<StoredRecord<R, P>>;
  private readonly now: () => number;
  private readonly attempts: number;

  constructor(
    private readonly state: StateStore,
    options: {
      result: z.core.$ZodType<R>;
      progress?: z.core.$ZodType<P>;
      now?: () => number;
      /** Claim attempts, each lost to a rival's write, before answering `held`. @default 3 */
      attempts?: number;
    },
  ) {
    this.schema = recordSchema(options.result, options.progress);
    this.now = options.now ?? Date.now;
    this.attempts = options.attempts ?? 3;
  }

  async read(key: string): Promise<SeenRecord<R, P> | undefined> {
    const found = await this.state.get(key, this.schema);
    return found && { key, etag: found.etag, record: found.value };
  }

  /** Claims `key`, taking over a released record or an abandoned claim. */
  async claim(key: string, claimant: Claimant<R, P>): Promise<ClaimOutcome<R>> {
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      const created = await this.write(key, this.pending(claimant), { ifNoneMatch: true });
      if (created !== undefined)
        return { kind: 'claimed', claim: this.claimOf(key, created, claimant) };
      const seen = await this.read(key);
      if (!seen) continue; // deleted meanwhile: create it again
      const found = this.judge(seen.record, claimant);
      if (found) return found;
      const taken = await this.write(key, this.pending(claimant), { ifMatch: seen.etag });
      if (taken !== undefined)
        return { kind: 'claimed', claim: this.claimOf(key, taken, claimant) };
      // A rival took it between our read and our write: look again.
    }
    // Rivals kept writing it: someone is at work on it.
    return { kind: 'held', owner: undefined };
  }

  /**
   * Takes the record over from the version read, whatever it holds: for callers whose own rule
   * says it is theirs (a hand-over), as `claim` does for an abandoned one. Exactly one of racing
   * takers wins; the others get ClaimLostError.
   */
  async takeOver(
    seen: { key: string; etag: string },
    claimant: Omit<Claimant<R, P>, 'leaseMs' | 'reopen'>,
  ): Promise<Claim> {
    const etag = await this.mustWrite(seen, 'take over', this.pending(claimant));
    return this.claimOf(seen.key, etag, claimant);
  }

  /** Saves a holder's progress and restarts its lease; answers the claim to write over next. */
  async renew(claim: Claim, progress?: P): Promise<Claim> {
    const etag = await this.mustWrite(claim, 'renew', this.pending({ ...claim, progress }));
    return { ...claim, etag };
  }

  /** Stores the result over our claim: later claimers hear `done` with it. */
  async complete(claim: Claim, result: R): Promise<void> {
    const at = new Date(this.now()).toISOString();
    const { owner, digest } = claim;
    await this.mustWrite(claim, 'complete', {
      state: 'done',
      completedAt: at,
      owner,
      digest,
      result,
    });
  }

  /** Frees our claim after failed work, so that a retry claims it at once. */
  async release(claim: Claim): Promise<void> {
    const at = new Date(this.now()).toISOString();
    // The owner keeps two releases apart: equal bytes would have equal ETags.
    const released = { state: 'released' as const, releasedAt: at, owner: claim.owner };
    await this.mustWrite(claim, 'release', released);
  }

  /** What a claimer found, or undefined when the record is free to take over. */
  private judge(record: StoredRecord<R, P>, claimant: Claimant<R, P>): ClaimOutcome<R> | undefined {
    if (record.state === 'released') return undefined;
    if (record.digest !== claimant.digest) return { kind: 'mismatch' };
    if (record.state === 'done')
      return claimant.reopen?.(record.result) ? undefined : { kind: 'done', result: record.result };
    const live = this.now() < Date.parse(record.claimedAt) + claimant.leaseMs;
    return live ? { kind: 'held', owner: record.owner } : undefined;
  }

  private pending(claimant: Stamp & { progress?: P | undefined }): StoredRecord<R, P> {
    const { owner, digest, progress } = claimant;
    return {
      state: 'pending',
      claimedAt: new Date(this.now()).toISOString(),
      owner,
      digest,
      progress,
    };
  }

  private claimOf(key: string, etag: string, claimant: Stamp): Claim {
    return { key, etag, owner: claimant.owner, digest: claimant.digest };
  }

  /** A conditional write: the new ETag, or undefined when the condition failed. */
  private async write(
    key: string,
    value: StoredRecord<R, P>,
    condition: { ifMatch: string } | { ifNoneMatch: true },
  ): Promise<string | undefined> {
    try {
      return await this.state.put(key, value, condition);
    } catch (error) {
      if (error instanceof ConflictError) return undefined;
      throw error;
    }
  }

  private async mustWrite(
    claim: { key: string; etag: string },
    action: Action,
    value: StoredRecord<R, P>,
  ): Promise<string> {
    try {
      return await this.state.put(claim.key, value, { ifMatch: claim.etag });
    } catch (error) {
      if (error instanceof ConflictError)
        throw new ClaimLostError(claim.key, action, { cause: error });
      throw error;
    }
  }
}
