import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { StorageError, s3Refusal } from './errors.js';

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

export interface ReportStoreOptions {
  /** zlib level of every object written, 1 (fastest) to 9 (smallest). @default DEFAULT_GZIP_LEVEL */
  gzipLevel?: number;
}

/**
 * Writes small archive objects (usage reports): gzip NDJSON, one record a line, compared with
 * what is stored and skipped when identical. Status snapshots, too large for memory, go through
 * ResumableObjectWriter (resumable-object.ts).
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
    const body = this.encode(records);
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
   * A record set under a key no one else writes (one run's alert history): put without first
   * asking what is stored, so its writer needs `s3:PutObject` on the prefix and nothing more.
   */
  async writeNewRecords(key: string, records: readonly unknown[]): Promise<void> {
    try {
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: this.encode(records),
          ...NDJSON,
          Metadata: { records: String(records.length) },
        }),
      );
    } catch (error) {
      throw new StorageError(`Cannot write s3://${this.bucket}/${key}`, { cause: error });
    }
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
      if (s3Refusal(error) === 'missing') return undefined;
      throw new StorageError(`Cannot read s3://${this.bucket}/${key}`, { cause: error });
    }
  }

  /** gzip NDJSON, one record a line. */
  private encode(records: readonly unknown[]): Buffer {
    return gzipSync(records.map((r) => `${JSON.stringify(r)}\n`).join(''), {
      level: this.gzipLevel,
    });
  }

  private async storedHash(key: string): Promise<string | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.Metadata?.sha256;
    } catch (error) {
      if (s3Refusal(error) === 'missing') return undefined;
      throw new StorageError(`Cannot read s3://${this.bucket}/${key}`, { cause: error });
    }
  }
}
