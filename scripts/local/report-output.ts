import { mkdir, rm, writeFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { verifyPageLink } from '../../lib/links/page-link-check.js';
import { LOCAL_ARCHIVE, LOCAL_OUTPUT, mirrorArchive } from './archive-mirror.js';

/** What the report builder returned for one GSM (the part the local run uses). */
export interface BuiltReport {
  pageKey: string;
  seatCsvKey?: string;
  /** The page's link; a report site's signed link when linkExpiresAt is set. */
  pageUrl?: string;
  linkExpiresAt?: string;
}

/** A saved page and the signed link that opens it on the report site. */
export interface SavedLink {
  path: string;
  url: string;
  expiresAt: string;
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
): Promise<{ archive: string; files: string[]; links: SavedLink[] }> {
  const archive = resolve(root, LOCAL_ARCHIVE);
  await rm(archive, { recursive: true, force: true });
  await mirrorArchive(s3, bucket, archive);
  const folder = resolve(root, LOCAL_OUTPUT, 'reports');
  await mkdir(folder, { recursive: true });
  const files: string[] = [];
  const links: SavedLink[] = [];
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
      if (key === report.pageKey && report.pageUrl && report.linkExpiresAt)
        links.push({ path, url: report.pageUrl, expiresAt: report.linkExpiresAt });
    }
  }
  return { archive, files, links };
}

/**
 * What `npm start` prints of the saved reports: each file, and under a page its signed link,
 * checked (signature, key pair, expiry) against the public key when one is given.
 */
export function savedReportLines(
  saved: { files: readonly string[]; links: readonly SavedLink[] },
  trusted?: { keyPairId: string; publicKey: string },
): string[] {
  return saved.files.flatMap((path) => {
    const link = saved.links.find((l) => l.path === path);
    if (!link) return [`report: ${path}`];
    if (trusted) verifyPageLink(link.url, trusted);
    const checked = trusted ? ', signature checked' : '';
    return [
      `report: ${path}`,
      `  link: ${link.url}`,
      `        (valid until ${link.expiresAt.slice(0, 10)}${checked})`,
    ];
  });
}
