import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, Stripe-style: `Skywatch-Signature: t=<unix seconds>,v1=<hex>` where the
 * hex is HMAC-SHA256(secret, `${t}.` followed by the raw body bytes). Signing the timestamp with
 * the body lets us refuse replays outside the tolerance window. The body is taken as the bytes
 * that were sent, never as text decoded and encoded again: that would change bytes that are not
 * valid UTF-8 and the signature with them. A string body stands for its UTF-8 bytes.
 */
export const SIGNATURE_HEADER = 'skywatch-signature';

export type SignatureProblem = 'missing' | 'malformed' | 'expired' | 'mismatch';

function mac(secret: string, timestamp: string, rawBody: string | Uint8Array): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
}

export function sign(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  return `t=${timestamp},v1=${mac(secret, String(timestamp), rawBody).toString('hex')}`;
}

/** Undefined when the signature is good; otherwise what is wrong with it. */
export function checkSignature(
  header: string | undefined,
  secret: string,
  rawBody: string | Uint8Array,
  nowSeconds: number,
  toleranceSeconds: number,
): SignatureProblem | undefined {
  if (!header) return 'missing';
  const fields = new Map(
    header.split(',').map((part) => {
      const eq = part.indexOf('=');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()] as const;
    }),
  );
  const t = fields.get('t');
  const v1 = fields.get('v1');
  if (!t || !/^\d{1,12}$/.test(t) || !v1 || !/^[0-9a-f]{64}$/.test(v1)) return 'malformed';
  if (Math.abs(nowSeconds - Number(t)) > toleranceSeconds) return 'expired';
  return timingSafeEqual(mac(secret, t, rawBody), Buffer.from(v1, 'hex')) ? undefined : 'mismatch';
}
