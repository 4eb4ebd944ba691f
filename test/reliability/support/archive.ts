import { createHash } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { ALERT_HISTORY } from '../../support/alert-history.js';
import type { Product } from '../../support/product.js';

/**
 * The alert history (lib/alerts/history.ts) is Skywatch's own record of what it sent, with
 * run ids and answer times that differ from run to run: not an archive of the service's data.
 */

/**
 * Every object under a prefix as key → SHA-256 of its stored bytes (all pages of the listing),
 * the alert history aside.
 */
export async function archiveHashes(
  product: Product,
  prefix: string,
  bucket = product.res.bucket,
): Promise<Map<string, string>> {
  const { s3 } = product.aws.clients;
  const hashes = new Map<string, string>();
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: bucket,
        Prefix: prefix,
        ...(token ? { ContinuationToken: token } : {}),
      }),
    );
    for (const o of page.Contents ?? []) {
      const key = o.Key ?? '';
      if (key.startsWith(ALERT_HISTORY)) continue;
      const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      const bytes = await (out.Body?.transformToByteArray() ?? new Uint8Array());
      hashes.set(key, createHash('sha256').update(bytes).digest('hex'));
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return new Map([...hashes].sort(([a], [b]) => a.localeCompare(b)));
}

/** Keys whose hashes differ between two archives, or that only one of them holds. */
export function archiveDiff(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).sort();
}

/** A small seeded PRNG (mulberry32), so both runs of a scenario inject the same events. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
