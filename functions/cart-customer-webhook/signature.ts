import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures, Stripe-style: `Skywatch-Signature: t=<unix seconds>,v1=<hex>` where the
 * hex is HMAC-SHA256(secret, `${t}.${rawBody}`). Signing the timestamp with the body lets us
 * refuse replays outside the tolerance window.
 */
export const SIGNATURE_HEADER = 'skywatch-signature';

export type SignatureProblem = 'missing' | 'malformed' | 'expired' | 'mismatch';

export function sign(secret: string, timestamp: number, rawBody: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
  return `t=${timestamp},v1=${mac}`;
}

/** Undefined when the signature is good; otherwise what is wrong with it. */
export function checkSignature(
  header: string | undefined,
  secret: string,
  rawBody: string,
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
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex')) ? undefined : 'mismatch';
}
