import { randomUUID } from 'node:crypto';
import { webhookHeaders } from '../../lib/webhooks/index.js';

/** A sender's Standard Webhooks headers for a body: a fresh id and now, unless given. */
export function signed(
  secret: string | readonly string[],
  body: string | Uint8Array,
  options: { id?: string; at?: number } = {},
): Record<string, string> {
  return webhookHeaders(typeof secret === 'string' ? [secret] : secret, {
    id: options.id ?? `msg_${randomUUID()}`,
    timestamp: options.at ?? Math.floor(Date.now() / 1000),
    body,
  });
}
