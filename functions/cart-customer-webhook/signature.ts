import {
  HEADER_ID,
  HEADER_SIGNATURE,
  HEADER_TIMESTAMP,
  parseSigningSecret,
  SigningSecretError,
  type Verified,
  verifyWebhook,
  type WebhookHeader,
} from '../../lib/webhooks/index.js';
import { refuse, type WebhookResponse } from './responses.js';

/**
 * The delivery's Standard Webhooks headers against our signing secrets (see lib/webhooks). The
 * old `Skywatch-Signature` scheme is gone, not accepted beside: 0.x, one sender, and a second
 * scheme would be a second way in (docs/operations.md).
 */
export { HEADER_ID, HEADER_SIGNATURE, HEADER_TIMESTAMP };

const LEGACY_SIGNATURE = 'skywatch-signature';

/**
 * The credentials-secret fields that hold signing secrets, the current one first. Read as they
 * are (lib/aws/secret-shapes.ts checks neither, so a bad one stops nothing but this webhook),
 * and checked here.
 */
export interface SigningSecrets {
  webhookSigningSecret?: unknown;
  webhookSigningSecretPrevious?: unknown;
}

const CURRENT = 'webhookSigningSecret';
const PREVIOUS = 'webhookSigningSecretPrevious';
const FIX = 'operators must correct the credentials secret';

/** The key in one field; none when the field is absent (or, for the previous secret, empty). */
function keyOf(field: keyof SigningSecrets, value: unknown): Uint8Array | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new SigningSecretError(`${field} must be a string, not a ${typeof value}`, field);
  // Emptied rather than removed after a rotation: nothing is being phased out.
  if (value === '' && field === PREVIOUS) return undefined;
  return parseSigningSecret(value, field);
}

/**
 * Keys to verify with, or the `503 not_configured` that names the field at fault and what to do
 * (never its value).
 *
 * @example
 * const keys = signingKeys({ webhookSigningSecret: 'whsec_…' });
 * if (!Array.isArray(keys)) return keys;
 */
export function signingKeys(secrets: SigningSecrets): Uint8Array[] | WebhookResponse {
  try {
    const current = keyOf(CURRENT, secrets.webhookSigningSecret);
    if (!current)
      return refuse(
        503,
        'not_configured',
        `${CURRENT} is not set in the credentials secret; operators must add it`,
      );
    const previous = keyOf(PREVIOUS, secrets.webhookSigningSecretPrevious);
    return previous ? [current, previous] : [current];
  } catch (error) {
    if (!(error instanceof SigningSecretError)) throw error;
    return refuse(503, 'not_configured', `${error.message}; ${FIX}`);
  }
}

const MESSAGES: Record<Exclude<Verified, { ok: true }>['problem'], (h: WebhookHeader) => string> = {
  missing: (h) => `the ${h} header is required (Standard Webhooks)`,
  malformed: (h) =>
    h === HEADER_ID
      ? `${h} must be 1–255 visible ASCII characters other than "."`
      : h === HEADER_TIMESTAMP
        ? `${h} must be the unix time in seconds`
        : `${h} must hold one or more "v1,<base64 HMAC-SHA256>" separated by spaces`,
  expired: (h) => `${h} is outside the tolerance window (replayed or clock skew)`,
  mismatch: () => 'the signature does not match the webhook-id, webhook-timestamp and body',
};

/**
 * The verified webhook-id, or the 401 that names the header at fault. A sender still on the
 * old scheme hears so.
 */
export function checkSignature(
  header: (name: string) => string | undefined,
  raw: Uint8Array,
  keys: readonly Uint8Array[],
  nowSeconds: number,
  toleranceSeconds: number,
): { id: string } | WebhookResponse {
  const verified = verifyWebhook(header, raw, keys, { nowSeconds, toleranceSeconds });
  if (verified.ok) return { id: verified.id };
  let message = MESSAGES[verified.problem](verified.header);
  if (verified.problem === 'missing' && header(LEGACY_SIGNATURE) !== undefined)
    message += '; Skywatch-Signature is no longer accepted, see docs/operations.md';
  return refuse(401, `signature_${verified.problem}`, message, verified.header);
}
