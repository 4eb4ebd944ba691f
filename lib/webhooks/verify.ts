import { timingSafeEqual } from 'node:crypto';
import { HEADER_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP, mac } from './sign.js';

export type WebhookHeader = typeof HEADER_ID | typeof HEADER_TIMESTAMP | typeof HEADER_SIGNATURE;

export type VerifyProblem = 'missing' | 'malformed' | 'expired' | 'mismatch';

export type Verified =
  | { ok: true; id: string; timestamp: number }
  | { ok: false; problem: VerifyProblem; header: WebhookHeader };

export interface VerifyOptions {
  nowSeconds: number;
  /** How far the timestamp may be from now, either way. */
  toleranceSeconds: number;
}

/**
 * The id is the idempotency key and part of the signed text. No `.` in it: with one, two
 * different (id, timestamp, body) could sign the same text (`a.1` `2` `5` and `a` `1` `2.5`).
 */
const ID = /^[\x21-\x2d\x2f-\x7e]{1,255}$/;
const TIMESTAMP = /^\d{1,12}$/;
/**
 * Exactly 32 bytes of HMAC-SHA256 in standard, padded base64. A signature is compared as this
 * text, as the reference libraries do, not as the bytes it decodes to: the last character has two
 * unused bits, and a signature with one of them changed is not the one we would send.
 */
const V1 = /^v1,([A-Za-z0-9+/]{43}=)$/;
/** Enough for several signatures while secrets rotate; more is not a sender's honest header. */
const MAX_SIGNATURE_HEADER = 2048;

/**
 * Checks a Standard Webhooks delivery against every key (the current secret and, during a
 * rotation, the previous one). Every `v1` signature in the header is tried; other versions
 * (`v1a`, future ones) are skipped, as the spec asks. The body is the bytes as sent.
 *
 * @example
 * const r = verifyWebhook(headers, rawBody, [key], { nowSeconds, toleranceSeconds: 300 });
 * if (!r.ok) refuse(r.problem, r.header);
 */
export function verifyWebhook(
  headers: (name: WebhookHeader) => string | undefined,
  body: string | Uint8Array,
  keys: readonly Uint8Array[],
  options: VerifyOptions,
): Verified {
  const id = headers(HEADER_ID);
  const timestamp = headers(HEADER_TIMESTAMP);
  const signature = headers(HEADER_SIGNATURE);
  if (!signature) return { ok: false, problem: 'missing', header: HEADER_SIGNATURE };
  if (!id) return { ok: false, problem: 'missing', header: HEADER_ID };
  if (!timestamp) return { ok: false, problem: 'missing', header: HEADER_TIMESTAMP };
  if (!ID.test(id)) return { ok: false, problem: 'malformed', header: HEADER_ID };
  if (!TIMESTAMP.test(timestamp))
    return { ok: false, problem: 'malformed', header: HEADER_TIMESTAMP };
  const candidates =
    signature.length > MAX_SIGNATURE_HEADER
      ? []
      : signature
          .split(' ')
          .map((entry) => V1.exec(entry)?.[1])
          .filter((b64): b64 is string => b64 !== undefined)
          .map((b64) => Buffer.from(b64, 'ascii'));
  if (candidates.length === 0) return { ok: false, problem: 'malformed', header: HEADER_SIGNATURE };
  if (Math.abs(options.nowSeconds - Number(timestamp)) > options.toleranceSeconds)
    return { ok: false, problem: 'expired', header: HEADER_TIMESTAMP };
  for (const key of keys) {
    const expected = Buffer.from(mac(key, id, timestamp, body).toString('base64'), 'ascii');
    if (candidates.some((c) => c.length === expected.length && timingSafeEqual(c, expected)))
      return { ok: true, id, timestamp: Number(timestamp) };
  }
  return { ok: false, problem: 'mismatch', header: HEADER_SIGNATURE };
}
