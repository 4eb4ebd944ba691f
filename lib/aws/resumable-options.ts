import { DEFAULT_GZIP_LEVEL } from './report-store.js';
import type { ResumableCheckpoint } from './resumable-checkpoint.js';

/** The options of a ResumableObjectWriter, checked, and the checkpoint a new object starts from. */

/** S3's smallest part but the last. */
const PART_SIZE = 5 * 1024 * 1024;
/** S3's largest part. */
const MAX_PART_SIZE = 5 * 1024 ** 3;
const PARTS_IN_FLIGHT = 2;

export interface ResumableObjectOptions {
  /** zlib level, 1 (fastest) to 9 (smallest). @default DEFAULT_GZIP_LEVEL */
  readonly gzipLevel?: number;
  /**
   * A part is uploaded once the pending gzip members reach this many bytes. S3 refuses parts
   * but the last under 5 MiB; tests lower it with moto's minimum. @default 5 MiB
   */
  readonly partSize?: number;
  /** Part uploads running while pages are still added. @default 2 */
  readonly partsInFlight?: number;
  /** S3 user metadata of the object. @default {} */
  readonly metadata?: Record<string, string>;
}

/** A resumed writer takes level, part size and metadata from the checkpoint. */
export type ResumeOptions = Pick<ResumableObjectOptions, 'partsInFlight'>;

/** What a checkpoint carries so that a resumed writer compresses and cuts as the first did. */
export type Settings = Pick<ResumableCheckpoint, 'gzipLevel' | 'partSize' | 'metadata'>;

export function partsInFlightOption(options: ResumeOptions): number {
  return integerOption('partsInFlight', options.partsInFlight ?? PARTS_IN_FLIGHT, 1, 64);
}

function integerOption(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be an integer from ${min} to ${max} (got ${value})`);
  }
  return value;
}

/** The checkpoint of an object with no page yet; `hashState` is an empty hasher's. */
export function firstCheckpoint(
  key: string,
  hashState: string,
  options: ResumableObjectOptions,
): ResumableCheckpoint {
  if (key.length === 0) throw new RangeError('key must not be empty');
  return {
    version: 1,
    key,
    uploadId: null,
    parts: [],
    records: 0,
    bytes: 0,
    pages: 0,
    continuation: null,
    hashState,
    gzipLevel: integerOption('gzipLevel', options.gzipLevel ?? DEFAULT_GZIP_LEVEL, 1, 9),
    partSize: integerOption('partSize', options.partSize ?? PART_SIZE, 1, MAX_PART_SIZE),
    metadata: { ...options.metadata },
  };
}
