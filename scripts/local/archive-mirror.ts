import { mkdir, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { GetObjectCommand, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';

export interface MirrorOptions {
  /** Key prefixes to copy. @default ['reports/', 'manifests/'] */
  prefixes?: readonly string[];
  /** Only objects of report days on or after this one (`date=YYYY-MM-DD` in the key). */
  since?: string;
  /** Only objects of this GSM (`gsm=<key>` in the key). */
  gsm?: string;
}

export interface MirrorOutcome {
  folder: string;
  downloaded: number;
  unchanged: number;
  bytes: number;
}

/** A key as a path below `folder`, refusing any key that would land outside it. */
function localPath(folder: string, key: string): string {
  const path = resolve(folder, ...key.split('/'));
  if (!path.startsWith(folder + sep)) throw new RangeError(`unsafe object key: ${key}`);
  return path;
}

function wanted(key: string, options: MirrorOptions): boolean {
  const date = /(?:^|\/)date=(\d{4}-\d{2}-\d{2})(?:\/|$)/.exec(key)?.[1];
  if (options.since && date && date < options.since) return false;
  const gsm = /(?:^|\/)gsm=([^/]+?)(?:\.json)?(?:\/|$)/.exec(key)?.[1];
  if (options.gsm && gsm && gsm !== options.gsm) return false;
  return true;
}

/**
 * Copies the archive of a bucket (local moto or a deployed one) to a folder, keys as paths, so
 * `npm run query` can read it. An object whose size and modification time match the local
 * copy is not downloaded again, so a second mirror of a large archive fetches only what is new.
 *
 * @example
 * await mirrorArchive(s3Client(), 'skywatch-reports-…', '.skywatch/archive', { since: '2026-06-01' });
 */
export async function mirrorArchive(
  s3: S3Client,
  bucket: string,
  folder: string,
  options: MirrorOptions = {},
): Promise<MirrorOutcome> {
  const root = resolve(folder);
  const outcome: MirrorOutcome = { folder: root, downloaded: 0, unchanged: 0, bytes: 0 };
  for (const prefix of options.prefixes ?? ['reports/', 'manifests/']) {
    for await (const page of paginateListObjectsV2(
      { client: s3 },
      { Bucket: bucket, Prefix: prefix },
    )) {
      for (const object of page.Contents ?? []) {
        const key = object.Key ?? '';
        if (!key || key.endsWith('/') || !wanted(key, options)) continue;
        const path = localPath(root, key);
        const modified = object.LastModified ?? new Date(0);
        const local = await stat(path).catch(() => undefined);
        if (
          local &&
          local.size === object.Size &&
          Math.floor(local.mtimeMs / 1000) === Math.floor(modified.getTime() / 1000)
        ) {
          outcome.unchanged++;
          continue;
        }
        const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        // The stored bytes: archive objects stay gzip, as DuckDB reads them.
        const body = (await out.Body?.transformToByteArray()) ?? new Uint8Array();
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, body);
        await utimes(path, modified, modified);
        outcome.downloaded++;
        outcome.bytes += body.length;
      }
    }
  }
  return outcome;
}

/** Where `npm start` leaves its archive and reports, and where `npm run query` looks first. */
export const LOCAL_OUTPUT = join('.skywatch');
export const LOCAL_ARCHIVE = join(LOCAL_OUTPUT, 'archive');
