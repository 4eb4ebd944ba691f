import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { createGzip, gzipSync } from 'node:zlib';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { StorageError } from './errors.js';
import { NdjsonEncoder } from './ndjson-encoder.js';

export interface ArchivedObject {
  key: string;
  /** Compressed size. */
  bytes: number;
  records: number;
  /** SHA-256 of the stored bytes, hex. */
  sha256: string;
  /** False when an identical object was already there and nothing was written. */
  written: boolean;
}

/**
 * One batch of `streamRecords`: records to serialise, or records already serialised as JSON
 * texts (a status page's `entryTexts()`, the service's own bytes), which skips the
 * serialisation.
 */
export type RecordBatch = readonly unknown[] | { readonly jsonTexts: readonly string[] };

function isJsonTexts(batch: RecordBatch): batch is { readonly jsonTexts: readonly string[] } {
  return !Array.isArray(batch);
}

/** How every archive object is stored: gzip NDJSON (also lib/aws/multipart-calls.ts). */
export const NDJSON = { ContentType: 'application/x-ndjson', ContentEncoding: 'gzip' } as const;
/**
 * gzip level of archive objects unless the store is told otherwise. Once snapshots stopped
 * being serialised again (they are archived as the service's text), gzip became most of the
 * archive's own CPU. Level 2 keeps the archive close to a download-only walk for a few per cent
 * more bytes than 4; level 1 saves little more time for more bytes, and zlib's default (6)
 * costs far more CPU. Deployments that would rather store less set `archiveGzipLevel`;
 * docs/performance.md has the figures.
 */
export const DEFAULT_GZIP_LEVEL = 2;
/**
 * S3's smallest part (5 MiB), two in flight: the upload holds at most three parts whatever the
 * snapshot's size, and 10,000 parts still allow 48 GiB.
 */
const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
/**
 * gzip hands its output over in chunks of this size, each a hop from the thread pool to the
 * main thread (and a write through to the upload): the default 16 KiB made many hops a page.
 */
const GZIP_CHUNK = 128 * 1024;

export interface ReportStoreOptions {
  /** zlib level of every object written, 1 (fastest) to 9 (smallest). @default DEFAULT_GZIP_LEVEL */
  gzipLevel?: number;
}

/**
 * Writes archive objects: gzip NDJSON, one record a line. Small sets are compared with what is
 * stored and skipped when identical; large ones stream through a bounded multipart upload.
 *
 * @example
 * const store = new ReportStore(clients.s3, 'my-bucket');
 * await store.writeRecords(reportKey({ dataset: 'site-usage', gsm, date, file: 'sites.ndjson.gz' }), sites);
 */
export class ReportStore {
  private readonly gzipLevel: number;

  constructor(
    private readonly s3: S3Client,
    readonly bucket: string,
    options: ReportStoreOptions = {},
  ) {
    const level = options.gzipLevel ?? DEFAULT_GZIP_LEVEL;
    if (!Number.isInteger(level) || level < 1 || level > 9) {
      throw new RangeError(`gzipLevel must be an integer from 1 to 9 (got ${level})`);
    }
    this.gzipLevel = level;
  }

  /** A small record set: built in memory, written only if its bytes differ from the stored ones. */
  async writeRecords(
    key: string,
    records: readonly unknown[],
    metadata: Record<string, string> = {},
  ) {
    const body = gzipSync(records.map((r) => `${JSON.stringify(r)}\n`).join(''), {
      level: this.gzipLevel,
    });
    const sha256 = createHash('sha256').update(body).digest('hex');
    const existing = await this.storedHash(key);
    const result: ArchivedObject = {
      key,
      bytes: body.length,
      records: records.length,
      sha256,
      written: false,
    };
    if (existing === sha256) return result;
    try {
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ...NDJSON,
          Metadata: { ...metadata, sha256, records: String(records.length) },
        }),
      );
    } catch (error) {
      throw new StorageError(`Cannot write s3://${this.bucket}/${key}`, { cause: error });
    }
    return { ...result, written: true };
  }

  /**
   * A large record stream (a full status snapshot), given as batches (pages): serialised,
   * gzipped and uploaded as it arrives, one write per batch with back-pressure, so memory stays
   * flat however many records there are.
   */
  async streamRecords(
    key: string,
    batches: AsyncIterable<RecordBatch>,
    metadata: Record<string, string> = {},
  ) {
    const gzip = createGzip({ level: this.gzipLevel, chunkSize: GZIP_CHUNK });
    const hash = createHash('sha256');
    let bytes = 0;
    const body = new PassThrough();
    gzip.on('data', (chunk: Buffer) => {
      hash.update(chunk);
      bytes += chunk.length;
    });
    gzip.pipe(body);
    const upload = new Upload({
      client: this.s3,
      params: { Bucket: this.bucket, Key: key, Body: body, ...NDJSON, Metadata: metadata },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
    });
    const done = upload.done();
    // An upload failure stops the producer at once: destroying gzip ends the pending write (its
    // callback fires, with or without an error), and the next batch is refused before it is
    // written.
    let failed: unknown;
    done.catch((error: unknown) => {
      failed = error ?? new Error('upload failed');
      gzip.destroy(failed as Error);
    });
    // Destroying gzip emits the failure as an event too; it is reported once, from the loop.
    gzip.on('error', () => {});
    let count = 0;
    const ndjson = new NdjsonEncoder();
    // Back-pressure one batch late: a batch (~3 MB for 1,000 full status entries) compresses on
    // libuv's thread pool while the next one is encoded, and at most one is ever waiting. The
    // encoder's two buffers take turns: a buffer is reused only after gzip has consumed it.
    let compressing: Promise<void> | undefined;
    try {
      for await (const batch of batches) {
        const records = isJsonTexts(batch) ? batch.jsonTexts : batch;
        if (records.length === 0) continue;
        count += records.length;
        const bytes = isJsonTexts(batch)
          ? ndjson.encodeTexts(batch.jsonTexts)
          : ndjson.encode(batch);
        await compressing;
        if (failed) throw failed;
        compressing = new Promise<void>((resolve, reject) => {
          gzip.write(bytes, (error) => (error ? reject(error) : resolve()));
        });
        // Awaited on the next batch or after the last; a failure meanwhile must not go unhandled.
        compressing.catch(() => {});
      }
      await compressing;
      gzip.end();
      await done;
    } catch (error) {
      gzip.destroy();
      await upload.abort().catch(() => undefined);
      throw new StorageError(`Cannot stream s3://${this.bucket}/${key}`, { cause: error });
    }
    return {
      key,
      bytes,
      records: count,
      sha256: hash.digest('hex'),
      written: true,
    } satisfies ArchivedObject;
  }

  /** A plain JSON document (manifests). */
  async writeJson(key: string, value: unknown): Promise<void> {
    try {
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: `${JSON.stringify(value, null, 2)}\n`,
          ContentType: 'application/json',
        }),
      );
    } catch (error) {
      throw new StorageError(`Cannot write s3://${this.bucket}/${key}`, { cause: error });
    }
  }

  /** A JSON document written by writeJson, or undefined when there is none. */
  async readJson(key: string): Promise<unknown> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return JSON.parse((await out.Body?.transformToString()) ?? 'null');
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
        ?.httpStatusCode;
      if (status === 404) return undefined;
      throw new StorageError(`Cannot read s3://${this.bucket}/${key}`, { cause: error });
    }
  }

  private async storedHash(key: string): Promise<string | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.Metadata?.sha256;
    } catch (error) {
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata
        ?.httpStatusCode;
      if (status === 404) return undefined;
      throw new StorageError(`Cannot read s3://${this.bucket}/${key}`, { cause: error });
    }
  }
}
