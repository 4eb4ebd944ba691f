import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import pLimit from 'p-limit';
import { AlertEventRow } from '../../lib/alerts/index.js';

/** Where the alert history lies in the bucket (lib/aws/report-keys.ts). */
export const ALERT_HISTORY = 'reports/alert-events/';

/** A history row with the object it was read from (the writer and run are in its key). */
export type StoredRow = AlertEventRow & { key: string };

/**
 * Every alert history row in the bucket (lib/aws/alert-history.ts), each validated by the
 * row's schema, read `concurrency` objects at a time: a soak writes one object per alerter
 * run and notifier batch, and reading them one by one would add seconds to the longest suite.
 * Rows keep their order within an object; objects come in key order.
 */
export async function readHistory(
  s3: S3Client,
  bucket: string,
  concurrency = 8,
): Promise<{ objects: number; rows: StoredRow[] }> {
  const keys: string[] = [];
  for await (const page of paginateListObjectsV2(
    { client: s3 },
    { Bucket: bucket, Prefix: ALERT_HISTORY },
  ))
    for (const { Key } of page.Contents ?? []) if (Key) keys.push(Key);
  keys.sort();
  const limit = pLimit(concurrency);
  const perObject = await Promise.all(
    keys.map((key) =>
      limit(async () => {
        const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const bytes = await (out.Body?.transformToByteArray() ?? new Uint8Array());
        return gunzipSync(bytes)
          .toString('utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line): StoredRow => ({ ...AlertEventRow.parse(JSON.parse(line)), key }));
      }),
    ),
  );
  return { objects: keys.length, rows: perObject.flat() };
}
