import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { StorageError, UploadGoneError } from './errors.js';
import { NDJSON } from './report-store.js';

/**
 * The S3 calls of a ResumableObjectWriter, each failing with one of our errors: a vanished
 * upload as UploadGoneError (the caller restarts the walk), anything else as StorageError.
 */
export interface ObjectTarget {
  s3: S3Client;
  bucket: string;
  key: string;
}

function isNoSuchUpload(error: unknown): boolean {
  const { name, Code } = (error ?? {}) as { name?: unknown; Code?: unknown };
  return name === 'NoSuchUpload' || Code === 'NoSuchUpload';
}

function failure(target: ObjectTarget, action: string, error: unknown, uploadId?: string): Error {
  if (uploadId !== undefined && isNoSuchUpload(error)) {
    return new UploadGoneError(target.key, uploadId, 'S3 has no such upload', { cause: error });
  }
  return new StorageError(`Cannot ${action} s3://${target.bucket}/${target.key}`, {
    cause: error,
  });
}

export async function putWholeObject(
  target: ObjectTarget,
  body: Buffer,
  metadata: Record<string, string>,
): Promise<void> {
  try {
    await target.s3.send(
      new PutObjectCommand({
        Bucket: target.bucket,
        Key: target.key,
        Body: body,
        ...NDJSON,
        Metadata: metadata,
      }),
    );
  } catch (error) {
    throw failure(target, 'write', error);
  }
}

export async function createUpload(
  target: ObjectTarget,
  metadata: Record<string, string>,
): Promise<string> {
  try {
    const out = await target.s3.send(
      new CreateMultipartUploadCommand({
        Bucket: target.bucket,
        Key: target.key,
        ...NDJSON,
        Metadata: metadata,
      }),
    );
    if (!out.UploadId) throw new Error('CreateMultipartUpload answered without an UploadId');
    return out.UploadId;
  } catch (error) {
    throw failure(target, 'start a multipart upload of', error);
  }
}

/** Uploads one part; answers its ETag. */
export async function uploadPart(
  target: ObjectTarget,
  uploadId: string,
  partNumber: number,
  body: Buffer,
): Promise<string> {
  try {
    const out = await target.s3.send(
      new UploadPartCommand({
        Bucket: target.bucket,
        Key: target.key,
        UploadId: uploadId,
        PartNumber: partNumber,
        Body: body,
      }),
    );
    if (!out.ETag) throw new Error(`UploadPart ${partNumber} answered without an ETag`);
    return out.ETag;
  } catch (error) {
    throw failure(target, `upload part ${partNumber} of`, error, uploadId);
  }
}

export async function completeUpload(
  target: ObjectTarget,
  uploadId: string,
  parts: readonly { partNumber: number; etag: string }[],
): Promise<void> {
  try {
    await target.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: target.bucket,
        Key: target.key,
        UploadId: uploadId,
        MultipartUpload: {
          Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
        },
      }),
    );
  } catch (error) {
    throw failure(target, 'complete the multipart upload of', error, uploadId);
  }
}

/** Aborts an upload; one already gone counts as aborted. */
export async function abortUpload(target: ObjectTarget, uploadId: string): Promise<void> {
  try {
    await target.s3.send(
      new AbortMultipartUploadCommand({
        Bucket: target.bucket,
        Key: target.key,
        UploadId: uploadId,
      }),
    );
  } catch (error) {
    if (isNoSuchUpload(error)) return;
    throw failure(target, 'abort the multipart upload of', error);
  }
}

/** The upload's parts as S3 holds them: part number to ETag and size. */
export async function listUploadedParts(
  target: ObjectTarget,
  uploadId: string,
): Promise<Map<number, { etag: string; bytes: number }>> {
  const parts = new Map<number, { etag: string; bytes: number }>();
  let marker: string | undefined;
  try {
    do {
      const out = await target.s3.send(
        new ListPartsCommand({
          Bucket: target.bucket,
          Key: target.key,
          UploadId: uploadId,
          PartNumberMarker: marker,
        }),
      );
      for (const part of out.Parts ?? []) {
        if (part.PartNumber === undefined) continue;
        parts.set(part.PartNumber, { etag: part.ETag ?? '', bytes: part.Size ?? -1 });
      }
      marker = out.IsTruncated ? out.NextPartNumberMarker : undefined;
    } while (marker !== undefined);
  } catch (error) {
    throw failure(target, 'list the parts of', error, uploadId);
  }
  return parts;
}

/**
 * Checks that the upload still holds `parts` as recorded (number, ETag, size): a resumed
 * writer must not complete an object around parts someone else replaced or that expired.
 */
export async function assertPartsHeld(
  target: ObjectTarget,
  uploadId: string,
  parts: readonly { partNumber: number; etag: string; bytes: number }[],
): Promise<void> {
  const stored = await listUploadedParts(target, uploadId);
  for (const part of parts) {
    const held = stored.get(part.partNumber);
    if (!held || unquote(held.etag) !== unquote(part.etag) || held.bytes !== part.bytes) {
      throw new UploadGoneError(
        target.key,
        uploadId,
        `part ${part.partNumber} is not the one the checkpoint recorded`,
      );
    }
  }
}

function unquote(etag: string): string {
  return etag.replace(/"/g, '');
}
