import { randomBytes } from 'node:crypto';
import { SigningSecretError } from './errors.js';

/** The prefix Standard Webhooks gives symmetric secrets, so they are easy to recognise. */
export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks: "Random. At least 24 bytes (192 bits, 512 maximum)". */
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * The HMAC key of a Standard Webhooks secret: `whsec_` followed by standard base64 of 24–64
 * bytes. The prefix may be left out, as the reference libraries allow, so the value CDK
 * generates (48 letters and digits, which is base64 of 36 bytes) works as it is.
 *
 * @example
 * const key = parseSigningSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
 */
export function parseSigningSecret(secret: string, field = 'webhookSigningSecret'): Buffer {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const rule = `must be ${SECRET_PREFIX} followed by base64 of ${MIN_SECRET_BYTES}–${MAX_SECRET_BYTES} random bytes`;
  // Buffer.from(…, 'base64') skips characters it does not know; checking first keeps a typo
  // (or a hex or base64url secret) from silently becoming another key.
  if (text.length % 4 !== 0 || !BASE64.test(text))
    throw new SigningSecretError(`${field} ${rule}`, field);
  const key = Buffer.from(text, 'base64');
  if (key.byteLength < MIN_SECRET_BYTES || key.byteLength > MAX_SECRET_BYTES)
    throw new SigningSecretError(`${field} ${rule} (it decodes to ${key.byteLength})`, field);
  return key;
}

/**
 * A new secret in the Standard Webhooks form, from 32 random bytes.
 *
 * @example
 * const secret = generateSigningSecret(); // 'whsec_…'
 */
export function generateSigningSecret(bytes = 32): string {
  return `${SECRET_PREFIX}${randomBytes(bytes).toString('base64')}`;
}
