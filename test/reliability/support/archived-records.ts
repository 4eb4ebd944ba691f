import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { utcInstant } from '../../../lib/index.js';
import { ALERT_HISTORY } from '../../support/alert-history.js';
import type { Product } from '../../support/product.js';

/**
 * Every NDJSON record archived under `prefix`, by object key, in the order written; the alert
 * history aside (./archive.ts).
 */
export async function archivedRecords(
  product: Product,
  prefix = 'reports/',
): Promise<Map<string, unknown[]>> {
  const { s3 } = product.aws.clients;
  const out = new Map<string, unknown[]>();
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: product.res.bucket,
        Prefix: prefix,
        ...(token ? { ContinuationToken: token } : {}),
      }),
    );
    for (const o of page.Contents ?? []) {
      const key = o.Key ?? '';
      if (key.startsWith(ALERT_HISTORY)) continue;
      const got = await s3.send(new GetObjectCommand({ Bucket: product.res.bucket, Key: key }));
      const bytes = Buffer.from(await (got.Body?.transformToByteArray() ?? new Uint8Array()));
      const text = (key.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
      out.set(
        key,
        text
          .split('\n')
          .filter((line) => line.trim() !== '')
          .map((line) => JSON.parse(line) as unknown),
      );
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return out;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;

/**
 * A record as data rather than text: every instant normalised (the real profile renders the
 * same instant in several ways).
 */
export function normalised(value: unknown): unknown {
  if (typeof value === 'string' && INSTANT.test(value)) return utcInstant(value);
  if (Array.isArray(value)) return value.map(normalised);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v)]));
  }
  return value;
}

/**
 * The fields of `contract` that `real` holds with a value too (the real profile nulls or blanks
 * a share of fields, and adds undocumented ones): "where the data is the same". Answers both
 * sides restricted to those fields, normalised.
 */
export function whereSame(real: unknown, contract: unknown): [unknown, unknown] {
  if (!real || !contract || typeof real !== 'object' || typeof contract !== 'object') {
    return [normalised(real), normalised(contract)];
  }
  if (Array.isArray(real) && Array.isArray(contract)) {
    const pairs = contract.map((c, i) => whereSame(real[i], c));
    return [pairs.map((p) => p[0]), pairs.map((p) => p[1])];
  }
  const r: Record<string, unknown> = {};
  const c: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(contract)) {
    const theirs = (real as Record<string, unknown>)[k];
    if (theirs === undefined || theirs === null || theirs === '') continue;
    [r[k], c[k]] = whereSame(theirs, v);
  }
  return [r, c];
}
