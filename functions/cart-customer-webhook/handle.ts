import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { StateStore } from '../../lib/aws/index.js';
import type { AddCustomersToCartResponse, SkywatchClient } from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import { claim, complete, recordKey, release } from './idempotency.js';
import { toCartRequest, WebhookRequest } from './request.js';
import { fromUpstream, json, refuse, type WebhookResponse, WHOLE_BODY } from './responses.js';
import { checkSignature, SIGNATURE_HEADER } from './signature.js';

export const MAX_BODY_BYTES = 32 * 1024;

/** Refuses bytes that are not UTF-8 instead of replacing them (JSON is UTF-8, RFC 8259). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface WebhookDeps {
  client: SkywatchClient;
  state: StateStore;
  signingSecret: () => Promise<string | undefined>;
  toleranceSeconds: number;
  /** A claim on an idempotency key older than this was abandoned and may be taken over. */
  takeoverSeconds: number;
  now?: () => number;
  /** Problems the caller need not hear about but operators should (no secrets in them). */
  warn?: (message: string, error: unknown) => void;
}

const SIGNATURE_MESSAGES = {
  missing: `the ${SIGNATURE_HEADER} header is required`,
  malformed: `the ${SIGNATURE_HEADER} header must read t=<unix seconds>,v1=<hex HMAC-SHA256>`,
  expired: 'the signature timestamp is outside the tolerance window (replayed or clock skew)',
  mismatch: 'the signature does not match the body',
} as const;

function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const found = Object.entries(event.headers ?? {}).find(([k]) => k.toLowerCase() === name);
  return found?.[1];
}

/**
 * One webhook delivery: method, size, signature, JSON, schema, idempotency, then 4.10. Every
 * refusal happens before the service is called and says what is wrong.
 */
export async function handleDelivery(
  deps: WebhookDeps,
  event: APIGatewayProxyEventV2,
): Promise<WebhookResponse> {
  const method = event.requestContext?.http?.method ?? 'POST';
  if (method !== 'POST') {
    return json(405, { error: 'method_not_allowed', message: 'use POST' }, { allow: 'POST' });
  }
  // The bytes as sent: the signature covers them, and decoding first could change them.
  const raw = Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8');
  if (raw.byteLength > MAX_BODY_BYTES) {
    return refuse(
      413,
      'payload_too_large',
      `the body must be at most ${MAX_BODY_BYTES} bytes`,
      WHOLE_BODY,
    );
  }
  const secret = await deps.signingSecret();
  if (!secret)
    return refuse(
      503,
      'not_configured',
      'the webhook signing secret is not set; operators must add it',
    );
  const now = deps.now ?? Date.now;
  const problem = checkSignature(
    header(event, SIGNATURE_HEADER),
    secret,
    raw,
    Math.floor(now() / 1000),
    deps.toleranceSeconds,
  );
  if (problem)
    return refuse(401, `signature_${problem}`, SIGNATURE_MESSAGES[problem], SIGNATURE_HEADER);
  const type = header(event, 'content-type') ?? '';
  if (!/^application\/json\b/i.test(type))
    return refuse(
      415,
      'unsupported_media_type',
      'send the body as application/json',
      'Content-Type',
    );

  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    return refuse(400, 'invalid_encoding', 'the body must be UTF-8 encoded JSON', WHOLE_BODY);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, 'malformed_json', 'the body is not valid JSON', WHOLE_BODY);
  }
  const parsed = z.safeParse(WebhookRequest, body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || WHOLE_BODY;
    return refuse(400, 'invalid_request', `${field}: ${issue?.message ?? 'is invalid'}`, field);
  }

  const idempotencyKey = header(event, 'idempotency-key');
  if (idempotencyKey !== undefined && !/^[\x21-\x7e]{1,255}$/.test(idempotencyKey)) {
    return refuse(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 1–255 visible ASCII characters',
      'Idempotency-Key',
    );
  }
  // Without a key the signed body itself identifies the delivery.
  const keyedBy = idempotencyKey === undefined ? SIGNATURE_HEADER : 'Idempotency-Key';
  const key = recordKey(idempotencyKey ?? `${header(event, SIGNATURE_HEADER)}`);
  const claimed = await claim(deps.state, key, {
    takeoverMs: deps.takeoverSeconds * 1000,
    now,
  });
  if (claimed.kind === 'replay') {
    return {
      statusCode: claimed.statusCode,
      headers: { 'content-type': 'application/json', 'idempotent-replayed': 'true' },
      body: claimed.body,
    };
  }
  if (claimed.kind === 'in-flight')
    return refuse(
      409,
      'in_progress',
      'a delivery with this idempotency key is still being processed; retry later',
      keyedBy,
    );

  let customers: AddCustomersToCartResponse;
  try {
    customers = await deps.client.addCartCustomers(
      parsed.data.vendorOrderCode,
      toCartRequest(parsed.data),
    );
  } catch (error) {
    // If the claim cannot be freed, the takeover window frees it: the caller hears the service.
    await release(deps.state, key, claimed.etag).catch((e) => deps.warn?.('release failed', e));
    return fromUpstream(error);
  }
  const answer = json(200, { vendorOrderCode: parsed.data.vendorOrderCode, customers });
  // The service has the customers whatever happens to the record, so the caller hears so.
  try {
    if (!(await complete(deps.state, key, claimed.etag, answer.statusCode, answer.body)))
      deps.warn?.('a later delivery took this one over before its answer was stored', undefined);
  } catch (error) {
    deps.warn?.('the answer could not be stored for replays', error);
  }
  return answer;
}
