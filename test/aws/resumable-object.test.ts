import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGunzip, gunzipSync } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CheckpointError,
  type ResumableCheckpoint,
  ResumableObjectWriter,
  StorageError,
  UploadGoneError,
} from '../../lib/aws/index.js';
import type { LocalResources } from '../../scripts/local/provision.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

/** moto's smallest part but the last in this suite: small parts, the rule still enforced. */
const PART_MIN = 64 * 1024;

let aws: LocalAws;
let res: LocalResources;
let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(async () => {
  aws = await startLocalAws({ moto: { env: { S3_UPLOAD_PART_MIN_SIZE: String(PART_MIN) } } });
  res = await aws.provision();
  process.on('unhandledRejection', onUnhandled);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await aws?.moto.stop();
});
beforeEach(() => {
  unhandled = [];
});
afterEach(async () => {
  // Give a stray rejection a turn of the event loop to show itself.
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(unhandled).toEqual([]);
});

let keys = 0;
const freshKey = () => `reports/agent-status/run-${Date.now()}-${keys++}.ndjson.gz`;

/** Deterministic pseudo-random pages: hex pads barely compress, so parts fill quickly. */
function makePages(seed: number, count: number, perPage = 40): string[][] {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state;
  };
  return Array.from({ length: count }, (_, page) =>
    Array.from({ length: perPage }, (_, n) => {
      const pad = Array.from({ length: 48 }, () => next().toString(16).padStart(8, '0')).join('');
      // One text spread over lines, as a service may send it: the line must still be one.
      return n === 0
        ? `{\n "page": ${page},\n "pad": "${pad}"\n}`
        : `{"page":${page},"n":${n},"pad":"${pad}"}`;
    }),
  );
}

function expectedNdjson(pages: string[][]): string {
  return pages
    .flat()
    .map((text) => `${text.replace(/[\r\n]/g, ' ')}\n`)
    .join('');
}

/** The continuation token after page `index`: the next page's index, none after the last. */
const nextToken = (pages: unknown[], index: number) =>
  index + 1 < pages.length ? `page-${index + 1}` : null;

/** Where a walk goes on from a checkpoint: its first page to fetch. */
function resumeAt(checkpoint: ResumableCheckpoint, pageCount: number): number {
  if (checkpoint.pages === 0) return 0;
  return checkpoint.continuation === null ? pageCount : Number(checkpoint.continuation.slice(5));
}

async function addPages(
  writer: ResumableObjectWriter,
  pages: string[][],
  from: number,
  to: number,
) {
  for (let i = from; i < to; i++) await writer.addPage(pages[i] ?? [], nextToken(pages, i));
}

/** A new object's checkpoint after 12 of `seed`'s pages, its parts uploaded. */
async function settledAfter12Pages(key: string, seed: number): Promise<ResumableCheckpoint> {
  const writer = await ResumableObjectWriter.start(aws.clients.s3, res.bucket, key, writerOptions);
  await addPages(writer, makePages(seed, 20), 0, 12);
  return writer.settle();
}

async function stored(key: string) {
  const out = await aws.clients.s3.send(new GetObjectCommand({ Bucket: res.bucket, Key: key }));
  const bytes = Buffer.from(await (out.Body?.transformToByteArray() ?? new Uint8Array()));
  return { out, bytes };
}

async function uploadsUnder(key: string) {
  const list = await aws.clients.s3.send(
    new ListMultipartUploadsCommand({ Bucket: res.bucket, Prefix: key }),
  );
  return list.Uploads ?? [];
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const writerOptions = { partSize: PART_MIN, gzipLevel: 2 };

describe('Class: ResumableObjectWriter', () => {
  it('moto refuses a non-last part under the suite minimum, so the check is live', async () => {
    const Key = freshKey();
    const s3 = aws.clients.s3;
    const { UploadId } = await s3.send(
      new CreateMultipartUploadCommand({ Bucket: res.bucket, Key }),
    );
    const parts = [];
    for (const PartNumber of [1, 2]) {
      const body = Buffer.alloc(PART_MIN - 1, PartNumber);
      const out = await s3.send(
        new UploadPartCommand({ Bucket: res.bucket, Key, UploadId, PartNumber, Body: body }),
      );
      parts.push({ PartNumber, ETag: out.ETag });
    }
    await expect(
      s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: res.bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      ),
    ).rejects.toMatchObject({ name: 'EntityTooSmall' });
    await s3.send(new AbortMultipartUploadCommand({ Bucket: res.bucket, Key, UploadId }));
  });

  it('writes a small object with one PutObject that gunzips to the exact NDJSON', async () => {
    const key = freshKey();
    const pages = makePages(1, 3, 5);
    const writer = await ResumableObjectWriter.start(aws.clients.s3, res.bucket, key, {
      ...writerOptions,
      metadata: { source: 'test' },
    });
    await addPages(writer, pages, 0, pages.length);
    expect(writer.checkpoint()).toMatchObject({ uploadId: null, pages: 0, parts: [] });
    const archived = await writer.finish();

    const { out, bytes } = await stored(key);
    expect(out.ETag).not.toMatch(/-\d+"?$/);
    expect(out.ContentType).toBe('application/x-ndjson');
    expect(out.ContentEncoding).toBe('gzip');
    expect(out.Metadata).toMatchObject({ source: 'test' });
    expect(gunzipSync(bytes).toString('utf8')).toBe(expectedNdjson(pages));
    expect(archived).toEqual({
      key,
      bytes: bytes.length,
      records: 15,
      sha256: sha256(bytes),
      written: true,
    });
    expect(await uploadsUnder(key)).toEqual([]);
  });

  it('writes an empty walk as a valid empty gzip file', async () => {
    const key = freshKey();
    const writer = await ResumableObjectWriter.start(aws.clients.s3, res.bucket, key);
    await writer.addPage([], null);
    const archived = await writer.finish();
    const { bytes } = await stored(key);
    expect(gunzipSync(bytes).length).toBe(0);
    expect(archived).toMatchObject({ records: 0, bytes: bytes.length, sha256: sha256(bytes) });
  });

  it('writes a multipart object that both gunzip APIs read whole, with its hash and size', async () => {
    const key = freshKey();
    const pages = makePages(2, 40);
    const writer = await ResumableObjectWriter.start(
      aws.clients.s3,
      res.bucket,
      key,
      writerOptions,
    );
    await addPages(writer, pages, 0, pages.length);
    const archived = await writer.finish();

    const { out, bytes } = await stored(key);
    const partCount = Number(/-(\d+)"?$/.exec(out.ETag ?? '')?.[1]);
    expect(partCount).toBeGreaterThan(3);
    const ndjson = expectedNdjson(pages);
    expect(gunzipSync(bytes).toString('utf8')).toBe(ndjson);
    const streamed = await buffer(Readable.from([bytes]).pipe(createGunzip()));
    expect(streamed.toString('utf8')).toBe(ndjson);
    expect(archived).toEqual({
      key,
      bytes: bytes.length,
      records: 40 * 40,
      sha256: sha256(bytes),
      written: true,
    });
    expect(await uploadsUnder(key)).toEqual([]);
  });

  it('resumes from a checkpoint at random cuts into the same bytes as an uninterrupted walk', async () => {
    const pages = makePages(3, 30);
    // Not the default level: a resumed writer must take the level from the checkpoint.
    const options = { ...writerOptions, gzipLevel: 5 };
    const reference = await ResumableObjectWriter.start(
      aws.clients.s3,
      res.bucket,
      freshKey(),
      options,
    );
    await addPages(reference, pages, 0, pages.length);
    const whole = await reference.finish();
    const wholeBytes = (await stored(whole.key)).bytes;

    // Seeded cuts, one walk cut twice, and the edges: before any page and after the last.
    let seed = 7;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const walks: number[][] = [[0], [pages.length], [3, 17]];
    for (let i = 0; i < 5; i++) walks.push([1 + Math.floor(random() * (pages.length - 1))]);

    let resumedAfterParts = 0;
    for (const [w, cuts] of walks.entries()) {
      const key = freshKey();
      let writer = await ResumableObjectWriter.start(aws.clients.s3, res.bucket, key, options);
      let next = 0;
      for (const [c, cut] of cuts.entries()) {
        await addPages(writer, pages, next, cut);
        // A stop takes either what has landed so far or waits for the parts in flight.
        const saved = (w + c) % 2 === 0 ? writer.checkpoint() : await writer.settle();
        const json: unknown = JSON.parse(JSON.stringify(saved));
        // The old writer is dropped as a dead process would be: never finished nor aborted.
        writer = await ResumableObjectWriter.resume(aws.clients.s3, res.bucket, json);
        next = resumeAt(saved, pages.length);
        expect(next).toBeLessThanOrEqual(cut);
        if (saved.parts.length > 0 && next > 0) resumedAfterParts++;
      }
      await addPages(writer, pages, next, pages.length);
      const archived = await writer.finish();
      const { bytes } = await stored(key);
      expect({ walk: cuts, equal: bytes.equals(wholeBytes) }).toEqual({ walk: cuts, equal: true });
      expect(archived).toEqual({ ...whole, key });
    }
    expect(resumedAfterParts).toBeGreaterThan(2);
  });

  it('returns from addPage while a part uploads, and checkpoints only completed parts', async () => {
    const key = freshKey();
    const pages = makePages(10, 20);
    const writer = await ResumableObjectWriter.start(
      aws.clients.s3,
      res.bucket,
      key,
      writerOptions,
    );
    let added = 0;
    while (writer.checkpoint().uploadId === null) {
      await writer.addPage(pages[added] ?? [], nextToken(pages, added));
      added++;
    }
    // The page that filled the first part returned before the part landed.
    const early = writer.checkpoint();
    expect(early).toMatchObject({ parts: [], pages: 0, records: 0, continuation: null });
    expect((await writer.settle()).parts).toHaveLength(1);

    // A stop at that moment keeps the upload: the resumed walk starts over at the first page.
    const resumed = await ResumableObjectWriter.resume(
      aws.clients.s3,
      res.bucket,
      JSON.parse(JSON.stringify(early)),
    );
    expect(resumed.checkpoint().uploadId).toBe(early.uploadId);
    await addPages(resumed, pages, 0, pages.length);
    await resumed.finish();
    expect(gunzipSync((await stored(key)).bytes).toString('utf8')).toBe(expectedNdjson(pages));
    expect(await uploadsUnder(key)).toEqual([]);
  });

  it('aborts: no object and no multipart upload are left', async () => {
    const key = freshKey();
    const pages = makePages(4, 20);
    const writer = await ResumableObjectWriter.start(
      aws.clients.s3,
      res.bucket,
      key,
      writerOptions,
    );
    await addPages(writer, pages, 0, 12);
    expect((await writer.settle()).parts.length).toBeGreaterThan(0);
    expect(await uploadsUnder(key)).toHaveLength(1);
    await writer.abort();

    expect(await uploadsUnder(key)).toEqual([]);
    await expect(
      aws.clients.s3.send(new HeadObjectCommand({ Bucket: res.bucket, Key: key })),
    ).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
    await expect(writer.addPage(pages[12] ?? [], null)).rejects.toBeInstanceOf(StorageError);
  });

  it('aborts the upload a checkpoint names, for a process holding only the checkpoint', async () => {
    const key = freshKey();
    const saved = JSON.parse(JSON.stringify(await settledAfter12Pages(key, 5)));
    await ResumableObjectWriter.abortCheckpoint(aws.clients.s3, res.bucket, saved);
    expect(await uploadsUnder(key)).toEqual([]);
    // Aborting again is harmless: the upload is already gone.
    await ResumableObjectWriter.abortCheckpoint(aws.clients.s3, res.bucket, saved);
  });

  it('refuses to resume an aborted upload with UploadGoneError', async () => {
    const key = freshKey();
    const saved = await settledAfter12Pages(key, 6);
    await ResumableObjectWriter.abortCheckpoint(aws.clients.s3, res.bucket, saved);

    const resumed = ResumableObjectWriter.resume(aws.clients.s3, res.bucket, saved);
    await expect(resumed).rejects.toBeInstanceOf(UploadGoneError);
    await expect(resumed).rejects.toMatchObject({ key, uploadId: saved.uploadId });
  });

  it('refuses a checkpoint whose parts S3 does not hold, or that is not one', async () => {
    const key = freshKey();
    const saved = await settledAfter12Pages(key, 7);
    const [first, ...rest] = saved.parts;
    if (!first) throw new Error('expected a part');
    const forged = { ...saved, parts: [{ ...first, etag: '"0123456789abcdef"' }, ...rest] };
    await expect(
      ResumableObjectWriter.resume(aws.clients.s3, res.bucket, forged),
    ).rejects.toBeInstanceOf(UploadGoneError);

    for (const bad of [
      { ...saved, version: 2 },
      { ...saved, records: saved.records + 1 },
      { ...saved, parts: rest },
      { ...saved, hashState: 'AAAA' },
      'not a checkpoint',
    ]) {
      await expect(
        ResumableObjectWriter.resume(aws.clients.s3, res.bucket, bad),
      ).rejects.toBeInstanceOf(CheckpointError);
    }
    await ResumableObjectWriter.abortCheckpoint(aws.clients.s3, res.bucket, saved);
  });

  it('surfaces a part upload that failed meanwhile on the next call, without unhandled rejections', async () => {
    const key = freshKey();
    const pages = makePages(8, 30);
    const writer = await ResumableObjectWriter.start(aws.clients.s3, res.bucket, key, {
      ...writerOptions,
      partsInFlight: 1,
    });
    await addPages(writer, pages, 0, 12);
    const { uploadId } = await writer.settle();
    // Another party ends the upload under the writer's feet: its next parts must fail.
    await aws.clients.s3.send(
      new AbortMultipartUploadCommand({ Bucket: res.bucket, Key: key, UploadId: uploadId ?? '' }),
    );
    // (S3 answers NoSuchUpload, an UploadGoneError; moto answers a server error.)
    let thrown: unknown;
    let calls = 0;
    try {
      for (let i = 12; i < pages.length; i++, calls++) {
        await writer.addPage(pages[i] ?? [], nextToken(pages, i));
      }
      calls++;
      await writer.finish();
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorageError);
    expect((thrown as Error).message).toMatch(/Cannot upload part \d+ of s3:/);
    expect((thrown as Error).cause).toBeDefined();
    // Every later call fails the same way rather than writing a partial object.
    await expect(writer.finish()).rejects.toBe(thrown);
    // With one part in flight, the next part waits for the failed one: addPage rejects.
    expect(calls).toBeLessThan(pages.length - 12);
  });

  it('fails with StorageError when the bucket does not exist', async () => {
    const missing = `${res.bucket}-missing`;
    const small = await ResumableObjectWriter.start(aws.clients.s3, missing, freshKey());
    await small.addPage(['{"a":1}'], null);
    await expect(small.finish()).rejects.toBeInstanceOf(StorageError);

    const large = await ResumableObjectWriter.start(
      aws.clients.s3,
      missing,
      freshKey(),
      writerOptions,
    );
    const pages = makePages(9, 20);
    await expect(addPages(large, pages, 0, pages.length)).rejects.toBeInstanceOf(StorageError);
  });

  it('refuses options out of range', async () => {
    for (const options of [
      { gzipLevel: 0 },
      { gzipLevel: 10 },
      { partSize: 0 },
      { partsInFlight: 0 },
    ]) {
      await expect(
        ResumableObjectWriter.start(aws.clients.s3, res.bucket, freshKey(), options),
      ).rejects.toBeInstanceOf(RangeError);
    }
  });
});
