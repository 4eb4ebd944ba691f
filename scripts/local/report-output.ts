import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { LOCAL_ARCHIVE, LOCAL_OUTPUT, mirrorArchive } from './archive-mirror.js';

/** What the report builder returned for one GSM (the part the local run uses). */
export interface BuiltReport {
  pageKey: string;
  seatCsvKey?: string;
}

/**
 * The end of `npm start`: the archive copied to `.skywatch/archive` (what `npm run query`
 * reads; replaced on each run, as each run has a new bucket) and the report builder's pages
 * and CSVs to `.skywatch/reports`, so they open from disk after moto has stopped.
 */
export async function saveLocalOutput(
  s3: S3Client,
  bucket: string,
  reports: readonly BuiltReport[],
  root = '.',
): Promise<{ archive: string; files: string[] }> {
  const archive = resolve(root, LOCAL_ARCHIVE);
  await rm(archive, { recursive: true, force: true });
  await mirrorArchive(s3, bucket, archive);
  const folder = resolve(root, LOCAL_OUTPUT, 'reports');
  await mkdir(folder, { recursive: true });
  const files: string[] = [];
  for (const report of reports) {
    for (const key of [report.pageKey, report.seatCsvKey]) {
      if (!key) continue;
      const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      // The day or month is in the key's folders; the file name says it too.
      const [, , gsm, period] = key.split('/');
      const name = `${gsm?.replace('gsm=', '')}-${period?.replace(/^(date|month)=/, '')}-${basename(key)}`;
      const path = join(folder, name);
      await writeFile(path, (await out.Body?.transformToByteArray()) ?? new Uint8Array());
      files.push(path);
    }
  }
  return { archive, files };
}
