import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { StateStore } from '../../lib/aws/index.js';
import type { AddCustomersToCartResponse, SkywatchClient } from '../../lib/index.js';
import * as z from '../../lib/zod.js';
import { claim, complete, payloadDigest, recordKey, release } from './idempotency.js';
import {
  isJsonMediaType,
  issueField,
  issueMessage,
  toCartRequest,
  WebhookRequest,
} from './request.js';
import {
  fromUpstream,
  json,
  refuse,
  replayed,
  type WebhookResponse,
  WHOLE_BODY,
} from './responses.js';
import { checkSignature, HEADER_ID, type SigningSecrets, signingKeys } from './signature.js';

export const MAX_BODY_BYTES = 32 * 1024;

/** Refuses bytes that are not UTF-8 instead of replacing them (JSON is UTF-8, RFC 8259). */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export interface WebhookDeps {
  client: SkywatchClient;
  state: StateStore;
  /** The current signing secret and, while one is phased out, the previous one. */
  signingSecrets: () => Promise<SigningSecrets>;
  toleranceSeconds: number;
  /** A claim on an idempotency key older than this was abandoned and may be taken over. */
  takeoverSeconds: number;
  now?: () => number;
  /** Problems the caller need not hear about but operators should (no secrets in them). */
  warn?: (message: string, error: unknown) => void;
}

function headerOf(event: APIGatewayProxyEventV2) {
  const headers = new Map(
    Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v] as const),
  );
  return (name: string): string | undefined => headers.get(name);
}

/** The id as echoed in a refusal: signed, so the sender's own, but kept short. */
const shown = (id: string) => JSON.stringify(id.length > 64 ? `${id.slice(0, 63)}…` : id);

/** The body as JSON, or the 4xx that says why not. */
function readBody(
  raw: Buffer,
  contentType: string | undefined,
): { request: WebhookRequest } | WebhookResponse {
  if (!isJsonMediaType(contentType))
    return refuse(
      415,
      'unsupported_media_type',
      'send the body as application/json (charset, if given, utf-8)',
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
  if (parsed.success) return { request: parsed.data };
  const issue = parsed.error.issues[0];
  const field = issueField(issue) ?? WHOLE_BODY;
  return refuse(400, 'invalid_request', `${field}: ${issueMessage(issue)}`, field);
}

/**
 * One webhook delivery: method, size, Standard Webhooks signature, media type, JSON, schema,
 * idempotency on the signed webhook-id, then 4.10. Every refusal happens before the service is
 * called and says what is wrong.
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
  const keys = signingKeys(await deps.signingSecrets());
  if (!Array.isArray(keys)) return keys;
  const now = deps.now ?? Date.now;
  const header = headerOf(event);
  const signed = checkSignature(header, raw, keys, Math.floor(now() / 1000), deps.toleranceSeconds);
  if (!('id' in signed)) return signed;
  const read = readBody(raw, header('content-type'));
  if (!('request' in read)) return read;
  const { request } = read;

  // The signed webhook-id is the key: a sender's retry keeps it, a replay cannot change it.
  const key = recordKey('webhook-id', signed.id);
  const digest = payloadDigest(raw);
  const claimed = await claim(deps.state, key, digest, {
    takeoverMs: deps.takeoverSeconds * 1000,
    now,
  });
  if (claimed.kind === 'replay') return replayed(claimed);
  if (claimed.kind === 'conflict')
    return refuse(
      422,
      'idempotency_key_reused',
      `webhook-id ${shown(signed.id)} was already used for another payload; a retry must send the same body, a new event needs a new webhook-id`,
      HEADER_ID,
    );
  if (claimed.kind === 'in-flight')
    return refuse(
      409,
      'in_progress',
      `the delivery with webhook-id ${shown(signed.id)} is still being processed; retry later`,
      HEADER_ID,
    );

  let customers: AddCustomersToCartResponse;
  try {
    customers = await deps.client.addCartCustomers(request.vendorOrderCode, toCartRequest(request));
  } catch (error) {
    // If the claim cannot be freed, the takeover window frees it: the caller hears the service.
    await release(deps.state, claimed.claim).catch((e) => deps.warn?.('release failed', e));
    return fromUpstream(error);
  }
  const answer = json(200, { vendorOrderCode: request.vendorOrderCode, customers });
  // The service has the customers whatever happens to the record, so the caller hears so.
  try {
    const stored = { statusCode: answer.statusCode, body: answer.body, digest };
    if (!(await complete(deps.state, claimed.claim, stored)))
      deps.warn?.('a later delivery took this one over before its answer was stored', undefined);
  } catch (error) {
    deps.warn?.('the answer could not be stored for replays', error);
  }
  return answer;
}
