import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import { AlertEventRow } from '../../lib/alerts/index.js';

/** Every alert history row in the bucket, validated, with the key of its object. */
export async function historyRows(s3: S3Client, bucket: string) {
  const rows: (AlertEventRow & { key: string })[] = [];
  for await (const page of paginateListObjectsV2(
    { client: s3 },
    { Bucket: bucket, Prefix: 'reports/alert-events/' },
  )) {
    for (const { Key: key = '' } of page.Contents ?? []) {
      const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const text = gunzipSync(
        await (out.Body?.transformToByteArray() ?? new Uint8Array()),
      ).toString();
      for (const line of text.split('\n').filter(Boolean))
        rows.push({ ...AlertEventRow.parse(JSON.parse(line)), key });
    }
  }
  return rows;
}
