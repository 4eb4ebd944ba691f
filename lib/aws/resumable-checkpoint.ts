import * as z from '../zod.js';
import { CheckpointError } from './errors.js';

const Count = z.number().check(z.int(), z.nonnegative());

const PartSchema = z.object({
  partNumber: z.number().check(z.int(), z.gte(1), z.lte(10_000)),
  etag: z.string().check(z.minLength(1)),
  /** Compressed bytes of the part. */
  bytes: Count,
  /** Texts (records) whose lines the part holds. */
  records: Count,
});

/**
 * Where a ResumableObjectWriter stands after its last uploaded part, as plain JSON: save it
 * (state table, step function payload) and give it to `ResumableObjectWriter.resume` in
 * another process.
 *
 * - `pages === 0`: no page is in an uploaded part yet; walk from the first page.
 * - `pages > 0`: walk on from `continuation` (the `after` of the last page in the parts);
 *   `continuation === null` then means that page was the last, so only `finish()` is left.
 *
 * `gzipLevel` and `partSize` are the writer's own: the resumed writer must compress and cut
 * exactly as the first did for the object to come out byte for byte the same. `uploadId` is
 * set as soon as the multipart upload exists, even before its first part completes, so a
 * resumed writer goes on with it rather than leaving it behind.
 */
export const ResumableCheckpointSchema = z.object({
  version: z.literal(1),
  key: z.string().check(z.minLength(1)),
  uploadId: z.nullable(z.string().check(z.minLength(1))),
  parts: z.array(PartSchema),
  /** Sum of the parts' records and bytes. */
  records: Count,
  bytes: Count,
  /** Pages whose lines are in the parts. */
  pages: Count,
  continuation: z.nullable(z.string()),
  /** hash-wasm SHA-256 state after the parts' bytes, base64. */
  hashState: z.string().check(z.minLength(1)),
  gzipLevel: z.number().check(z.int(), z.gte(1), z.lte(9)),
  partSize: z.number().check(z.int(), z.positive()),
  /** S3 user metadata the object is created with. */
  metadata: z.record(z.string(), z.string()),
});
export type ResumableCheckpoint = z.infer<typeof ResumableCheckpointSchema>;

/**
 * A checkpoint read back from storage: its shape, then what must hold between its fields, so a
 * hand-edited or mixed-up checkpoint fails here rather than as a corrupt object later.
 */
export function parseCheckpoint(value: unknown): ResumableCheckpoint {
  const parsed = z.safeParse(ResumableCheckpointSchema, value);
  if (!parsed.success) {
    throw new CheckpointError(`Invalid resumable object checkpoint: ${parsed.error.message}`, {
      cause: parsed.error,
    });
  }
  const checkpoint = parsed.data;
  const problem = inconsistency(checkpoint);
  if (problem) {
    throw new CheckpointError(`Inconsistent checkpoint for ${checkpoint.key}: ${problem}`);
  }
  return checkpoint;
}

function inconsistency(checkpoint: ResumableCheckpoint): string | undefined {
  const { parts } = checkpoint;
  if (parts.some((part, index) => part.partNumber !== index + 1)) {
    return 'part numbers must run 1, 2, 3, ...';
  }
  if (parts.length > 0 && checkpoint.uploadId === null) return 'parts without an upload';
  if (parts.length > 0 && checkpoint.pages === 0) return 'parts without pages';
  if (parts.length === 0 && checkpoint.pages > 0) return 'pages without parts';
  if (checkpoint.records !== parts.reduce((sum, part) => sum + part.records, 0)) {
    return 'records differ from the sum of the parts';
  }
  if (checkpoint.bytes !== parts.reduce((sum, part) => sum + part.bytes, 0)) {
    return 'bytes differ from the sum of the parts';
  }
  if (parts.length === 0 && checkpoint.continuation !== null) {
    return 'a continuation before any page';
  }
  return undefined;
}
