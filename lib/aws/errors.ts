import { SkywatchError } from '../errors/index.js';

/** A secret is missing, unreadable, or not of the documented shape (docs/operations.md). */
export class SecretError extends SkywatchError {
  constructor(
    message: string,
    readonly secretId: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SecretError';
  }
}

/** A conditional write lost a race: someone else wrote the object first. */
export class ConflictError extends SkywatchError {
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`Conditional write to ${key} failed: another run changed it first`, options);
    this.name = 'ConflictError';
  }
}

/** An S3 or SNS call failed for a reason other than a lost race. */
export class StorageError extends SkywatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
  }
}

/**
 * A write conditional on an object's version found no object: another run removed it. A
 * StorageError, so code that handles those still catches it.
 */
export class ObjectGoneError extends StorageError {
  constructor(
    readonly key: string,
    options?: { cause?: unknown },
  ) {
    super(`Conditional write to ${key} failed: the object is gone`, options);
    this.name = 'ObjectGoneError';
  }
}

/** A required environment variable is missing or malformed. */
export class ConfigError extends SkywatchError {
  constructor(
    readonly variable: string,
    rule: string,
  ) {
    super(`Environment variable ${variable} ${rule}`);
    this.name = 'ConfigError';
  }
}

/** An SQS call failed as a whole: no such queue, access denied, or the network. */
export class QueueError extends SkywatchError {
  constructor(
    message: string,
    readonly queueUrl: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'QueueError';
  }
}

/**
 * A resumed multipart upload is no longer there (aborted, expired by the bucket's lifecycle rule,
 * or completed by another run), or its parts are not the checkpoint's: the caller aborts what is
 * left and starts the walk again from its first page. A StorageError, so code that handles
 * those still catches it.
 */
export class UploadGoneError extends StorageError {
  constructor(
    readonly key: string,
    readonly uploadId: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Multipart upload of ${key} cannot be resumed: ${reason}; restart the walk`, options);
    this.name = 'UploadGoneError';
  }
}

/** A saved checkpoint is not one a ResumableObjectWriter wrote (bad shape or inconsistent). */
export class CheckpointError extends SkywatchError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CheckpointError';
  }
}

/**
 * What an S3 refusal means, read from the SDK's error: the one place that looks inside one, so
 * callers test our kinds and classes only. `missing`: no such key (404; NotFound for a HEAD);
 * `upload-gone`: no such multipart upload; `conflict`: a write condition failed (412) or
 * another conditional write to the key was in progress (409).
 */
export function s3Refusal(error: unknown): 'missing' | 'upload-gone' | 'conflict' | undefined {
  const { name, Code, $metadata } = (error ?? {}) as {
    name?: unknown;
    Code?: unknown;
    $metadata?: { httpStatusCode?: number };
  };
  if (name === 'NoSuchUpload' || Code === 'NoSuchUpload') return 'upload-gone';
  const status = $metadata?.httpStatusCode;
  if (status === 404 || name === 'NoSuchKey') return 'missing';
  return status === 412 || status === 409 ? 'conflict' : undefined;
}
