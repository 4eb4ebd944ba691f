import { randomBytes } from 'node:crypto';
import { SigningSecretError } from './errors.js';

/** The prefix Standard Webhooks gives symmetric secrets, so they are easy to recognise. */
export const SECRET_PREFIX = 'whsec_';
/** Standard Webhooks: "Random. At least 24 bytes (192 bits, 512 maximum)". */
export const MIN_SECRET_BYTES = 24;
export const MAX_SECRET_BYTES = 64;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/**
 * Hexadecimal digits alone: the form of the secrets of the old `Skywatch-Signature` scheme
 * (`openssl rand -hex 24`). Base64 too, so it would decode to some key, but not the one the
 * sender meant. Random base64 of 24 bytes or more is all hex digits once in 10^14 or less.
 */
const HEX = /^[0-9A-Fa-f]+$/;
const RULE = `must be ${SECRET_PREFIX} followed by base64 of ${MIN_SECRET_BYTES}–${MAX_SECRET_BYTES} random bytes`;
const MAKE = `make one with: echo "${SECRET_PREFIX}$(openssl rand -base64 32)" (docs/operations.md)`;

/**
 * The HMAC key of a Standard Webhooks secret: `whsec_` followed by canonical, padded base64 of
 * 24–64 bytes. The prefix may be left out, as the reference libraries allow, so the value CDK
 * generates (48 letters and digits, which is base64 of 36 bytes) works as it is. Refused, with
 * a message naming `field` and never the value: an empty secret, the old hex form, text that is
 * not base64 (base64url, a typo), base64 that is not canonical (a changed last character), and
 * keys of another length.
 *
 * @example
 * const key = parseSigningSecret('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
 */
export function parseSigningSecret(secret: string, field = 'webhookSigningSecret'): Buffer {
  const text = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const refuse = (why: string) => new SigningSecretError(`${field} ${why}; ${MAKE}`, field);
  if (text === '') throw refuse(`is empty: it ${RULE}`);
  if (HEX.test(text))
    throw refuse(
      `holds hexadecimal digits only, like the old Skywatch-Signature secrets: it ${RULE}`,
    );
  // Buffer.from(…, 'base64') skips characters it does not know; checking first keeps a typo
  // (or a base64url secret) from silently becoming another key.
  if (text.length % 4 !== 0 || !BASE64.test(text)) throw refuse(`${RULE} (this is not base64)`);
  const key = Buffer.from(text, 'base64');
  // Only one text encodes a key: one with unused bits set is a changed character, not a secret.
  if (key.toString('base64') !== text) throw refuse(`${RULE} (this is not canonical base64)`);
  if (key.byteLength < MIN_SECRET_BYTES || key.byteLength > MAX_SECRET_BYTES)
    throw refuse(`${RULE} (this decodes to ${key.byteLength})`);
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
