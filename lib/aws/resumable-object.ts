import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import type { IHasher } from 'hash-wasm';
import { CheckpointError, StorageError } from './errors.js';
import {
  abortUpload,
  assertPartsHeld,
  completeUpload,
  type ObjectTarget,
  putWholeObject,
} from './multipart-calls.js';
import { NdjsonEncoder } from './ndjson-encoder.js';
import { PageCompressor } from './page-compressor.js';
import { type CutPart, PartPipeline } from './part-pipeline.js';
import type { ArchivedObject } from './report-store.js';
import { parseCheckpoint, type ResumableCheckpoint } from './resumable-checkpoint.js';
import {
  firstCheckpoint,
  partsInFlightOption,
  type ResumableObjectOptions,
  type ResumeOptions,
  type Settings,
} from './resumable-options.js';

export type { ResumableObjectOptions, ResumeOptions };

/**
 * Encoders and compressors shared by every writer in the process. A page holds one pair only
 * while it is encoded and compressed, so a few serve any number of walks at once; a pair a
 * writer would set up its buffers and deflate state again for each of a large console's
 * thousands of site walks.
 */
interface PagePacker {
  encoder: NdjsonEncoder;
  gzip: PageCompressor;
}
const idlePackers: PagePacker[] = [];
const IDLE_PACKERS_KEPT = 8;

function takePacker(level: number): PagePacker {
  const at = idlePackers.findIndex((p) => p.gzip.level === level);
  if (at >= 0) return idlePackers.splice(at, 1)[0] as PagePacker;
  return { encoder: new NdjsonEncoder(), gzip: new PageCompressor(level) };
}

function giveBack(packer: PagePacker): void {
  if (!packer.gzip.broken && idlePackers.length < IDLE_PACKERS_KEPT) idlePackers.push(packer);
  else packer.gzip.close();
}

/** hash-wasm's SHA-256, loaded on first use (./sha256-wasm.mts says why). */
async function createSHA256(): Promise<IHasher> {
  return (await import('./sha256-wasm.mjs')).createSHA256();
}

let emptyState: Promise<string> | undefined;
/** An empty SHA-256 state, as a checkpoint holds it: the same in every writer. */
function emptyHashState(): Promise<string> {
  emptyState ??= createSHA256().then((h) => Buffer.from(h.save()).toString('base64'));
  return emptyState;
}

/** A hasher in a saved state; a CheckpointError when it cannot be read. */
async function loadHasher(key: string, hashState: string): Promise<IHasher> {
  const hasher = await createSHA256();
  try {
    hasher.load(Buffer.from(hashState, 'base64'));
  } catch (error) {
    throw new CheckpointError(`Checkpoint for ${key} has an unreadable hashState`, {
      cause: error,
    });
  }
  return hasher;
}

/**
 * Writes one gzip NDJSON object from pages of JSON texts, so that a walk can stop (a Lambda's
 * deadline) and go on in another process, and the object comes out byte for byte as an
 * uninterrupted walk would have written it.
 *
 * Each page is its own gzip member (concatenated members are one valid gzip file), and a part
 * is cut as soon as the pending members reach `partSize`: part boundaries depend only on the
 * pages, so a resumed walk, which starts again at a part boundary, cuts the same parts. The
 * SHA-256 runs in hash-wasm, whose state can be saved into the checkpoint.
 *
 * Call `addPage` one page at a time (await each). Objects under one part are a single
 * PutObject; larger ones a multipart upload with `partsInFlight` parts uploading meanwhile.
 *
 * @example
 * const writer = saved
 *   ? await ResumableObjectWriter.resume(s3, bucket, saved)
 *   : await ResumableObjectWriter.start(s3, bucket, key);
 * // No pages in the parts: from the first page. Else from the continuation, if any is left.
 * const pages = !saved || saved.pages === 0 ? walk() : saved.continuation ? walk(saved.continuation) : [];
 * for await (const page of pages) {
 *   await writer.addPage(page.entryTexts(), page.next ?? null);
 *   if (nearDeadline()) return saveCheckpoint(await writer.settle());
 * }
 * return writer.finish();
 */
export class ResumableObjectWriter {
  private readonly parts: PartPipeline;
  private readonly settings: Settings;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingRecords = 0;
  private pendingPages = 0;
  private pendingAfter: string | null = null;
  private busy = false;
  private closed = false;
  /** A failed call leaves pages half taken: every later call fails the same way. */
  private broken: unknown;
  /** The hash state the writer began with, for a hasher made later. */
  private readonly startHashState: string;

  private constructor(
    private readonly target: ObjectTarget,
    checkpoint: ResumableCheckpoint,
    /**
     * Covers the bytes of every part cut so far, in flight or not. Made when the first part is
     * cut: an object of one part, as most site walks write, is hashed whole by Node's own SHA-256.
     */
    private hasher: IHasher | undefined,
    partsInFlight: number,
  ) {
    const { gzipLevel, partSize, metadata } = checkpoint;
    this.startHashState = checkpoint.hashState;
    this.settings = { gzipLevel, partSize, metadata };
    this.parts = new PartPipeline(target, checkpoint, partsInFlight);
  }

  /** A new object at `key`; nothing reaches S3 until a part fills or `finish`. */
  static async start(
    s3: S3Client,
    bucket: string,
    key: string,
    options: ResumableObjectOptions = {},
  ): Promise<ResumableObjectWriter> {
    const checkpoint = firstCheckpoint(key, await emptyHashState(), options);
    return new ResumableObjectWriter(
      { s3, bucket, key },
      checkpoint,
      undefined,
      partsInFlightOption(options),
    );
  }

  /**
   * Goes on from a checkpoint (as `checkpoint()` gave it, JSON round-tripped or not): a
   * CheckpointError when it is not one, an UploadGoneError when S3 no longer holds its upload
   * or its parts. The dead writer must be dead: two writers of one upload overwrite each other.
   */
  static async resume(
    s3: S3Client,
    bucket: string,
    checkpoint: unknown,
    options: ResumeOptions = {},
  ): Promise<ResumableObjectWriter> {
    const saved = parseCheckpoint(checkpoint);
    const hasher = await loadHasher(saved.key, saved.hashState);
    const target = { s3, bucket, key: saved.key };
    if (saved.uploadId !== null) await assertPartsHeld(target, saved.uploadId, saved.parts);
    return new ResumableObjectWriter(target, saved, hasher, partsInFlightOption(options));
  }

  /** Aborts the upload a checkpoint names, for a process that holds only the checkpoint. */
  static async abortCheckpoint(s3: S3Client, bucket: string, checkpoint: unknown): Promise<void> {
    const saved = parseCheckpoint(checkpoint);
    if (saved.uploadId !== null) {
      await abortUpload({ s3, bucket, key: saved.key }, saved.uploadId);
    }
  }

  get key(): string {
    return this.target.key;
  }

  /**
   * Adds one page: `texts` are its records as JSON texts, `after` where the walk goes on after
   * it (the service's continuation token, null after the last page). Resolves once the page is
   * compressed and, when it filled a part, that part's upload has started; an earlier part's
   * failed upload rejects here.
   */
  async addPage(texts: readonly string[], after: string | null): Promise<void> {
    await this.guarded('addPage', async () => {
      this.parts.throwIfFailed();
      if (texts.length > 0) {
        this.addMember(await this.compressTexts(texts), texts.length);
      }
      this.pendingPages += 1;
      this.pendingAfter = after;
      if (this.pendingBytes >= this.settings.partSize) await this.cutPart();
    });
  }

  /**
   * The state after the last part whose upload completed (earlier parts all completed too).
   * Pages added since are not in it: a resumed walk fetches them again.
   */
  checkpoint(): ResumableCheckpoint {
    return structuredClone(this.parts.committed);
  }

  /** Waits for the parts in flight, then answers `checkpoint()`: the most a stop can keep. */
  async settle(): Promise<ResumableCheckpoint> {
    await this.parts.settle();
    return this.checkpoint();
  }

  /** Uploads what is left and completes the object. The writer is spent afterwards. */
  async finish(): Promise<ArchivedObject> {
    const archived = await this.guarded('finish', async () => {
      await this.parts.settle();
      const committed = this.parts.committed;
      if (committed.bytes + this.pendingBytes === 0) {
        // No records at all: still a valid (empty) gzip file rather than zero bytes.
        this.addMember(await this.compressTexts([]), 0);
      }
      const uploadId = this.parts.uploadId;
      if (uploadId === null) {
        const whole = this.takePending();
        const sha256 = this.hasher
          ? this.hasher.update(whole.body).digest('hex')
          : createHash('sha256').update(whole.body).digest('hex');
        await putWholeObject(this.target, whole.body, this.settings.metadata);
        return this.archived(whole.body.length, whole.records, sha256);
      }
      if (this.pendingBytes > 0) await this.cutPart();
      await this.parts.settle();
      await completeUpload(this.target, uploadId, committed.parts);
      const hasher = await this.partsHasher();
      return this.archived(committed.bytes, committed.records, hasher.digest('hex'));
    });
    this.closed = true;
    return archived;
  }

  /** Stops for good: waits for parts in flight, then aborts the upload if there is one. */
  async abort(): Promise<void> {
    this.closed = true;
    await this.parts.settle().catch(() => undefined);
    const uploadId = this.parts.uploadId;
    if (uploadId !== null) await abortUpload(this.target, uploadId);
  }

  private async guarded<T>(method: string, work: () => Promise<T>): Promise<T> {
    if (this.closed) {
      throw new StorageError(`${method} on a finished or aborted writer of ${this.key}`);
    }
    if (this.broken) throw this.broken;
    if (this.busy) {
      throw new StorageError(`${method} before the previous call on ${this.key} resolved`);
    }
    this.busy = true;
    try {
      return await work();
    } catch (error) {
      this.broken ??= error;
      throw error;
    } finally {
      this.busy = false;
    }
  }

  private archived(bytes: number, records: number, sha256: string): ArchivedObject {
    return { key: this.target.key, bytes, records, sha256, written: true };
  }

  /** The page's NDJSON, compressed; its packer goes back to the pool once gzip has read it. */
  private async compressTexts(texts: readonly string[]): Promise<Buffer> {
    const packer = takePacker(this.settings.gzipLevel);
    try {
      return await packer.gzip.compress(packer.encoder.encodeTexts(texts));
    } catch (error) {
      throw new StorageError(`Cannot compress a page of ${this.key}`, { cause: error });
    } finally {
      giveBack(packer);
    }
  }

  private addMember(member: Buffer, records: number): void {
    this.pending.push(member);
    this.pendingBytes += member.length;
    this.pendingRecords += records;
  }

  private takePending(): CutPart & { records: number } {
    const [only] = this.pending;
    const body =
      this.pending.length === 1 && only ? only : Buffer.concat(this.pending, this.pendingBytes);
    const cut = {
      body,
      records: this.pendingRecords,
      pages: this.pendingPages,
      after: this.pendingAfter,
      hashState: '',
    };
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingRecords = 0;
    this.pendingPages = 0;
    return cut;
  }

  /** The resumable hasher, from the state the writer began with when none is made yet. */
  private async partsHasher(): Promise<IHasher> {
    this.hasher ??= await loadHasher(this.key, this.startHashState);
    return this.hasher;
  }

  private async cutPart(): Promise<void> {
    const part = this.takePending();
    const hasher = await this.partsHasher();
    hasher.update(part.body);
    part.hashState = Buffer.from(hasher.save()).toString('base64');
    await this.parts.upload(part);
  }
}
