import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip, gunzipSync } from 'node:zlib';
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import { StorageError, s3Refusal } from '../aws/errors.js';

/**
 * Reads the archive's gzip NDJSON objects back: small ones whole, snapshots a line at a time.
 *
 * @example
 * const reader = new ArchiveReader(s3Client(), bucket);
 * const sites = await reader.records('reports/site-usage/gsm=G/date=2026-06-14/type=ActiveEndpoints/sites.ndjson.gz');
 */
export class ArchiveReader {
  constructor(
    private readonly s3: S3Client,
    readonly bucket: string,
  ) {}

  /**
   * Every record of a small object, or undefined when there is no such object. A line that is
   * not JSON (a cut write, a stray byte) comes back as undefined in its place, for the caller's
   * schema to skip and count (archived-lines.ts), rather than failing the whole object.
   */
  async records<T = Record<string, unknown>>(key: string): Promise<(T | undefined)[] | undefined> {
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      const bytes = await out.Body?.transformToByteArray();
      if (!bytes) return [];
      return parseLines(gunzipSync(bytes).toString('utf8')) as (T | undefined)[];
    } catch (error) {
      if (s3Refusal(error) === 'missing') return undefined;
      throw new StorageError(`Cannot read s3://${this.bucket}/${key}`, { cause: error });
    }
  }

  /**
   * Each record of a large object (a status snapshot) in turn, so memory stays flat however
   * many endpoints it holds; nothing when there is no such object.
   */
  async *stream<T = Record<string, unknown>>(key: string): AsyncGenerator<T> {
    let body: Readable;
    try {
      const out = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      body = out.Body as Readable;
    } catch (error) {
      if (s3Refusal(error) === 'missing') return;
      throw new StorageError(`Cannot read s3://${this.bucket}/${key}`, { cause: error });
    }
    const lines = createInterface({ input: body.pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of lines) if (line.trim()) yield JSON.parse(line) as T;
  }

  /** Keys below a prefix. */
  async keys(prefix: string): Promise<string[]> {
    const keys: string[] = [];
    try {
      for await (const page of paginateListObjectsV2(
        { client: this.s3 },
        { Bucket: this.bucket, Prefix: prefix },
      ))
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    } catch (error) {
      throw new StorageError(`Cannot list s3://${this.bucket}/${prefix}`, { cause: error });
    }
    return keys;
  }
}

function parseLines(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return undefined;
      }
    });
}
