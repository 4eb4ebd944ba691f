import { StorageError } from './errors.js';
import { createUpload, type ObjectTarget, uploadPart } from './multipart-calls.js';
import type { ResumableCheckpoint } from './resumable-checkpoint.js';

/** A part cut by the writer: its bytes and what a checkpoint after it records. */
export interface CutPart {
  body: Buffer;
  records: number;
  /** Pages whose members the part holds. */
  pages: number;
  /** The `after` of the part's last page. */
  after: string | null;
  /** SHA-256 state after this part's bytes, base64. */
  hashState: string;
}

interface Running {
  partNumber: number;
  bytes: number;
  cut: Omit<CutPart, 'body'>;
  /** Set when UploadPart answered. */
  etag?: string;
  /** Never rejects: a failure is kept in `failure` and thrown by the next call. */
  settled: Promise<void>;
}

const MAX_PARTS = 10_000;

/**
 * The multipart upload behind a ResumableObjectWriter: parts upload while the writer goes on
 * compressing pages, at most `limit` at a time, and the checkpoint advances only over parts
 * whose upload completed, in order, so it never names a part S3 might not hold.
 */
export class PartPipeline {
  /** The checkpoint after the completed parts; mutated as they complete. */
  readonly committed: ResumableCheckpoint;
  private readonly running: Running[] = [];
  private failure: Error | undefined;

  constructor(
    private readonly target: ObjectTarget,
    checkpoint: ResumableCheckpoint,
    private readonly limit: number,
  ) {
    this.committed = structuredClone(checkpoint);
  }

  get uploadId(): string | null {
    return this.committed.uploadId;
  }

  throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /**
   * Starts uploading `part` (creating the multipart upload first if there is none), after
   * waiting for the oldest upload if `limit` are running. Resolves once the upload started.
   */
  async upload(part: CutPart): Promise<void> {
    while (this.running.length >= this.limit) {
      await this.running[0]?.settled;
      this.throwIfFailed();
    }
    this.throwIfFailed();
    const uploadId =
      this.committed.uploadId ?? (await createUpload(this.target, this.committed.metadata));
    // In the checkpoint at once, so a resumed writer goes on with this upload.
    this.committed.uploadId = uploadId;
    const partNumber = this.committed.parts.length + this.running.length + 1;
    if (partNumber > MAX_PARTS) {
      throw new StorageError(
        `s3://${this.target.bucket}/${this.target.key} needs more than ${MAX_PARTS} parts: raise partSize`,
      );
    }
    const { body, ...cut } = part;
    const running: Running = { partNumber, bytes: body.length, cut, settled: Promise.resolve() };
    running.settled = uploadPart(this.target, uploadId, partNumber, body).then(
      (etag) => {
        running.etag = etag;
        this.commitCompleted();
      },
      (error: unknown) => {
        this.failure ??= error instanceof Error ? error : new StorageError(String(error));
      },
    );
    this.running.push(running);
  }

  /** Waits for every running upload; throws the first failure. */
  async settle(): Promise<void> {
    await Promise.all(this.running.map((running) => running.settled));
    this.throwIfFailed();
  }

  private commitCompleted(): void {
    while (this.running[0]?.etag !== undefined) {
      const done = this.running.shift();
      if (!done?.etag) break;
      const checkpoint = this.committed;
      checkpoint.parts.push({
        partNumber: done.partNumber,
        etag: done.etag,
        bytes: done.bytes,
        records: done.cut.records,
      });
      checkpoint.records += done.cut.records;
      checkpoint.bytes += done.bytes;
      checkpoint.pages += done.cut.pages;
      checkpoint.continuation = done.cut.after;
      checkpoint.hashState = done.cut.hashState;
    }
  }
}
