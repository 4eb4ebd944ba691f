import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { StorageError, s3Refusal, UploadGoneError } from './errors.js';
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

/** Runs one call on `target`; a failure is raised as one of our errors (see above). */
async function attempt<T>(
  target: ObjectTarget,
  action: string,
  call: (at: { Bucket: string; Key: string }) => Promise<T>,
  uploadId?: string,
): Promise<T> {
  try {
    return await call({ Bucket: target.bucket, Key: target.key });
  } catch (error) {
    if (uploadId !== undefined && s3Refusal(error) === 'upload-gone')
      throw new UploadGoneError(target.key, uploadId, 'S3 has no such upload', { cause: error });
    throw new StorageError(`Cannot ${action} s3://${target.bucket}/${target.key}`, {
      cause: error,
    });
  }
}

export function putWholeObject(
  target: ObjectTarget,
  body: Buffer,
  metadata: Record<string, string>,
): Promise<void> {
  return attempt(target, 'write', async (at) => {
    await target.s3.send(
      new PutObjectCommand({ ...at, Body: body, ...NDJSON, Metadata: metadata }),
    );
  });
}

export function createUpload(
  target: ObjectTarget,
  metadata: Record<string, string>,
): Promise<string> {
  return attempt(target, 'start a multipart upload of', async (at) => {
    const out = await target.s3.send(
      new CreateMultipartUploadCommand({ ...at, ...NDJSON, Metadata: metadata }),
    );
    if (!out.UploadId) throw new Error('CreateMultipartUpload answered without an UploadId');
    return out.UploadId;
  });
}

/** Uploads one part; answers its ETag. */
export function uploadPart(
  target: ObjectTarget,
  uploadId: string,
  partNumber: number,
  body: Buffer,
): Promise<string> {
  const upload = async (at: { Bucket: string; Key: string }) => {
    const out = await target.s3.send(
      new UploadPartCommand({ ...at, UploadId: uploadId, PartNumber: partNumber, Body: body }),
    );
    if (!out.ETag) throw new Error(`UploadPart ${partNumber} answered without an ETag`);
    return out.ETag;
  };
  return attempt(target, `upload part ${partNumber} of`, upload, uploadId);
}

export function completeUpload(
  target: ObjectTarget,
  uploadId: string,
  parts: readonly { partNumber: number; etag: string }[],
): Promise<void> {
  const MultipartUpload = {
    Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
  };
  const complete = async (at: { Bucket: string; Key: string }) => {
    await target.s3.send(
      new CompleteMultipartUploadCommand({ ...at, UploadId: uploadId, MultipartUpload }),
    );
  };
  return attempt(target, 'complete the multipart upload of', complete, uploadId);
}

/** Aborts an upload; one already gone counts as aborted. */
export function abortUpload(target: ObjectTarget, uploadId: string): Promise<void> {
  return attempt(target, 'abort the multipart upload of', async (at) => {
    try {
      await target.s3.send(new AbortMultipartUploadCommand({ ...at, UploadId: uploadId }));
    } catch (error) {
      if (s3Refusal(error) !== 'upload-gone') throw error;
    }
  });
}

/** The upload's parts as S3 holds them: part number to ETag and size. */
export function listUploadedParts(
  target: ObjectTarget,
  uploadId: string,
): Promise<Map<number, { etag: string; bytes: number }>> {
  const list = async (at: { Bucket: string; Key: string }) => {
    const parts = new Map<number, { etag: string; bytes: number }>();
    let marker: string | undefined;
    do {
      const out = await target.s3.send(
        new ListPartsCommand({ ...at, UploadId: uploadId, PartNumberMarker: marker }),
      );
      for (const part of out.Parts ?? []) {
        if (part.PartNumber === undefined) continue;
        parts.set(part.PartNumber, { etag: part.ETag ?? '', bytes: part.Size ?? -1 });
      }
      marker = out.IsTruncated ? out.NextPartNumberMarker : undefined;
    } while (marker !== undefined);
    return parts;
  };
  return attempt(target, 'list the parts of', list, uploadId);
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
