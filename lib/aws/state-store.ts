import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  paginateListObjectsV2,
  type S3Client,
} from '@aws-sdk/client-s3';
import * as z from '../zod.js';
import { ConflictError, ObjectGoneError, StorageError, s3Refusal } from './errors.js';

export type WriteCondition = { ifMatch: string } | { ifNoneMatch: true };

/** A record as read, with the version a write over it is conditional on. */
export interface Stored<T> {
  value: T;
  etag: string;
}

/**
 * Small JSON state objects (cursors, de-duplication records) under `state/`, written with S3
 * conditional writes so that of two overlapping runs only one can claim or advance anything.
 *
 * @example
 * if (await state.create(`alerts/${id}.json`, { at })) await publisher.publish(alert);
 */
export class StateStore {
  /**
   * The bytes of records read through `getListed`, as this process last read or wrote them, by
   * key: a warm function lists a prefix every run and re-reads only the records that changed.
   */
  private readonly copies = new Map<string, { etag: string; text: string }>();

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly prefix = 'state/',
    /** Records `getListed` keeps copies of, at most; the least recently used goes first. */
    private readonly maxCopies = 50_000,
  ) {}

  get<T>(key: string, schema: z.core.$ZodType<T>): Promise<Stored<T> | undefined> {
    // A record `getListed` keeps a copy of stays current with every read of it.
    return this.read(key, schema, this.copies.has(key));
  }

  private async read<T>(
    key: string,
    schema: z.core.$ZodType<T>,
    keepCopy: boolean,
  ): Promise<Stored<T> | undefined> {
    let text: string;
    let etag: string;
    try {
      const out = await this.s3.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }),
      );
      text = (await out.Body?.transformToString()) ?? '';
      etag = out.ETag ?? '';
    } catch (error) {
      if (s3Refusal(error) === 'missing') {
        this.copies.delete(key);
        return undefined;
      }
      throw new StorageError(`Cannot read state ${key}`, { cause: error });
    }
    if (keepCopy) this.keep(key, etag, text);
    return this.parse(key, text, etag, schema);
  }

  /**
   * A record at the ETag a listing (`list`) just gave: from this process's copy when it holds
   * that version, without a request, else read (and kept). An ETag names the bytes of one
   * version, so the answer is what a read at listing time gave; as with any read, a write over
   * it is conditional on that version and fails if the record moved since. Each call parses
   * afresh, so a caller may change what it gets.
   *
   * @example
   * for await (const { key, etag } of state.list('health/G/subjects/'))
   *   await judge(await state.getListed(key, etag, SubjectRecord));
   */
  async getListed<T>(
    key: string,
    listedEtag: string,
    schema: z.core.$ZodType<T>,
  ): Promise<Stored<T> | undefined> {
    const copy = this.copies.get(key);
    if (copy && listedEtag !== '' && copy.etag === listedEtag) {
      this.keep(key, copy.etag, copy.text);
      return this.parse(key, copy.text, copy.etag, schema);
    }
    return this.read(key, schema, true);
  }

  private parse<T>(key: string, text: string, etag: string, schema: z.core.$ZodType<T>) {
    try {
      return { value: z.parse(schema, JSON.parse(text)), etag };
    } catch (error) {
      throw new StorageError(`Cannot read state ${key}`, { cause: error });
    }
  }

  private keep(key: string, etag: string, text: string): void {
    this.copies.delete(key);
    if (this.copies.size >= this.maxCopies) {
      const oldest = this.copies.keys().next();
      if (!oldest.done) this.copies.delete(oldest.value);
    }
    this.copies.set(key, { etag, text });
  }

  /**
   * Writes under a condition; a lost race raises ConflictError, an `ifMatch` on a removed object
   * ObjectGoneError. Answers the new ETag.
   */
  async put(key: string, value: unknown, condition?: WriteCondition): Promise<string> {
    const text = JSON.stringify(value);
    try {
      const out = await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.prefix + key,
          Body: text,
          ContentType: 'application/json',
          ...(condition && 'ifMatch' in condition ? { IfMatch: condition.ifMatch } : {}),
          ...(condition && 'ifNoneMatch' in condition ? { IfNoneMatch: '*' } : {}),
        }),
      );
      if (this.copies.has(key)) this.keep(key, out.ETag ?? '', text);
      return out.ETag ?? '';
    } catch (error) {
      const refusal = s3Refusal(error);
      if (refusal === 'conflict') throw new ConflictError(key, { cause: error });
      if (refusal === 'missing') throw new ObjectGoneError(key, { cause: error });
      throw new StorageError(`Cannot write state ${key}`, { cause: error });
    }
  }

  /**
   * Read, change, write back under a condition: `next` gets the current value (undefined when
   * there is none) and answers the new one, or undefined to leave the record as it is. A lost
   * race reads again and asks `next` again, up to `attempts` times, then raises ConflictError.
   * Answers whether this call wrote.
   *
   * @example
   * await state.update('counts/a.json', Count, (c) => ({ n: (c?.n ?? 0) + 1 }));
   */
  async update<T>(
    key: string,
    schema: z.core.$ZodType<T>,
    next: (current: T | undefined) => unknown,
    attempts = 4,
  ): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.get(key, schema);
      const value = next(current?.value);
      if (value === undefined) return false;
      try {
        await this.put(key, value, current ? { ifMatch: current.etag } : { ifNoneMatch: true });
        return true;
      } catch (error) {
        if (!(error instanceof ConflictError) || attempt >= attempts) throw error;
      }
    }
  }

  /**
   * Writes over the version read (`seen`), or creates the record when none was read: false when
   * another writer came first (it changed or removed the record, or created one).
   *
   * @example
   * const cursor = await state.get(key, Cursor);
   * if (!(await state.replace(key, next, cursor))) log('an overlapping run moved it first');
   */
  async replace(key: string, value: unknown, seen: Stored<unknown> | undefined): Promise<boolean> {
    try {
      await this.put(key, value, seen ? { ifMatch: seen.etag } : { ifNoneMatch: true });
      return true;
    } catch (error) {
      if (error instanceof ConflictError || error instanceof ObjectGoneError) return false;
      throw error;
    }
  }

  /** Creates the object only if absent: true when this call created it. */
  async create(key: string, value: unknown): Promise<boolean> {
    try {
      await this.put(key, value, { ifNoneMatch: true });
      return true;
    } catch (error) {
      if (error instanceof ConflictError) return false;
      throw error;
    }
  }

  /**
   * The records under a prefix, page by page in key order, each with its key (relative to the
   * store's prefix, as `get` takes it) and ETag, which changes whenever the record is written.
   * Memory stays flat however many there are, and callers can stop early.
   *
   * @example
   * for await (const { key } of state.list('infection-alerter/G/claims/')) await recover(key);
   */
  async *list(keyPrefix: string, pageSize = 1000): AsyncGenerator<{ key: string; etag: string }> {
    const pages = paginateListObjectsV2(
      { client: this.s3, pageSize },
      { Bucket: this.bucket, Prefix: this.prefix + keyPrefix },
    );
    try {
      for await (const page of pages) {
        for (const object of page.Contents ?? []) {
          if (object.Key)
            yield { key: object.Key.slice(this.prefix.length), etag: object.ETag ?? '' };
        }
      }
    } catch (error) {
      throw new StorageError(`Cannot list state under ${keyPrefix}`, { cause: error });
    }
  }

  async delete(key: string): Promise<void> {
    this.copies.delete(key);
    try {
      await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.prefix + key }));
    } catch (error) {
      throw new StorageError(`Cannot delete state ${key}`, { cause: error });
    }
  }
}
