import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { invalidParameter } from '../http/problem.js';

const TOKEN_TTL_MS = 24 * 3_600_000;

interface Position {
  /** Digest of the query the token belongs to. */
  q: string;
  /** Next endpoint index to read. */
  p: number;
  /** Expiry, epoch seconds. */
  x: number;
}

export function queryDigest(parts: (string | undefined)[]): string {
  return createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\u0000'))
    .digest('base64url')
    .slice(0, 16);
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url').slice(0, 22);
}

/** An opaque, signed continuation token: a keyset position bound to its query and an expiry. */
export function encodeContinuation(key: Buffer, digest: string, next: number, now: number): string {
  const payload = Buffer.from(
    JSON.stringify({ q: digest, p: next, x: Math.floor((now + TOKEN_TTL_MS) / 1000) }),
  ).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The position a continuation token stands for; 400 when forged, expired or for another query. */
export function decodeContinuation(
  key: Buffer,
  token: string,
  digest: string,
  now: number,
): number {
  const parts = token.split('.');
  const [payload = '', signature = ''] = parts;
  const forged = () =>
    invalidParameter('continuation', 'is not a continuation token this service issued');
  if (parts.length !== 2) throw forged();
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw forged();
  }
  let position: Position;
  try {
    position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Position;
  } catch {
    throw forged();
  }
  if (position.x * 1000 <= now)
    throw invalidParameter('continuation', 'has expired; start the query again');
  if (position.q !== digest) {
    throw invalidParameter(
      'continuation',
      'belongs to a different query (keyCode, machineId, modifiedSince or returnedInfo changed)',
    );
  }
  return position.p;
}
