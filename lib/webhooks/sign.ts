import { createHmac } from 'node:crypto';
import { parseSigningSecret } from './secret.js';

/**
 * Standard Webhooks (https://www.standardwebhooks.com, spec 1.0.0), symmetric scheme: the
 * signature is HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.` followed by the body
 * exactly as sent, base64-encoded and versioned `v1,`. Written here rather than taken from the
 * `standardwebhooks` package because its `sign` and `verify` turn a Buffer body into text with
 * `payload.toString()` and encode it again: bytes that are not valid UTF-8 come back as U+FFFD,
 * so what it checks is not what was sent (and its tolerance and clock are fixed). The published
 * test vectors of that package pass here (test/lib/webhooks/standard-webhooks.test.ts).
 */
export const HEADER_ID = 'webhook-id';
export const HEADER_TIMESTAMP = 'webhook-timestamp';
export const HEADER_SIGNATURE = 'webhook-signature';

/** What a signature covers. A string body stands for its UTF-8 bytes. */
export interface SignedContent {
  id: string;
  /** Unix seconds. */
  timestamp: number;
  body: string | Uint8Array;
}

/** HMAC-SHA256 over `id.timestamp.body`, with the key as bytes. */
export function mac(
  key: Uint8Array,
  id: string,
  timestamp: string,
  body: string | Uint8Array,
): Buffer {
  return createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
}

/**
 * The `webhook-signature` value: one `v1,<base64>` per secret, space-separated. During a
 * rotation a sender signs with both secrets, so either one verifies.
 *
 * @example
 * signatureHeader(['whsec_…'], { id: 'msg_1', timestamp: 1614265330, body: '{"a":1}' });
 */
export function signatureHeader(secrets: readonly string[], content: SignedContent): string {
  return secrets
    .map((secret, i) => {
      const key = parseSigningSecret(secret, `secret ${i + 1}`);
      return `v1,${mac(key, content.id, String(content.timestamp), content.body).toString('base64')}`;
    })
    .join(' ');
}

/**
 * The three headers of a Standard Webhooks delivery.
 *
 * @example
 * const headers = webhookHeaders(['whsec_…'], { id: 'msg_1', timestamp: now, body });
 */
export function webhookHeaders(
  secrets: readonly string[],
  content: SignedContent,
): Record<typeof HEADER_ID | typeof HEADER_TIMESTAMP | typeof HEADER_SIGNATURE, string> {
  return {
    [HEADER_ID]: content.id,
    [HEADER_TIMESTAMP]: String(content.timestamp),
    [HEADER_SIGNATURE]: signatureHeader(secrets, content),
  };
}
