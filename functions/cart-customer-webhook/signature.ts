import {
  HEADER_ID,
  HEADER_SIGNATURE,
  HEADER_TIMESTAMP,
  parseSigningSecret,
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

/** The credentials-secret fields that hold signing secrets, the current one first. */
export interface SigningSecrets {
  webhookSigningSecret?: string | undefined;
  webhookSigningSecretPrevious?: string | undefined;
}

/** Keys to verify with, or the refusal naming the field that is wrong (never its value). */
export function signingKeys(secrets: SigningSecrets): Uint8Array[] | WebhookResponse {
  if (!secrets.webhookSigningSecret)
    return refuse(
      503,
      'not_configured',
      'the webhook signing secret is not set; operators must add it',
    );
  try {
    return Object.entries(secrets)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => parseSigningSecret(value as string, field));
  } catch (error) {
    return refuse(
      503,
      'not_configured',
      `${(error as Error).message}; operators must correct the credentials secret`,
    );
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
