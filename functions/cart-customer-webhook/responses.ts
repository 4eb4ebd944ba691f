import type { APIGatewayProxyResultV2 } from 'aws-lambda';
import {
  AuthError,
  HttpError,
  NetworkError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from '../../lib/index.js';

export type WebhookResponse = Exclude<APIGatewayProxyResultV2, string> & {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
};

/**
 * The headers of every answer, fresh or replayed: answers hold personal data, so no cache
 * between the sender and us may keep one.
 */
const HEADERS = { 'content-type': 'application/json', 'cache-control': 'no-store' } as const;

export function json(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): WebhookResponse {
  return { statusCode, headers: { ...HEADERS, ...headers }, body: JSON.stringify(body) };
}

/** A stored answer given again: the first answer's headers, and a mark that it is a replay. */
export function replayed(stored: { statusCode: number; body: string }): WebhookResponse {
  return {
    statusCode: stored.statusCode,
    headers: { ...HEADERS, 'idempotent-replayed': 'true' },
    body: stored.body,
  };
}

/** A 4xx that names what is wrong; `field` names the input at fault when there is one. */
export function refuse(
  statusCode: number,
  error: string,
  message: string,
  field?: string,
): WebhookResponse {
  return json(statusCode, { error, message, ...(field ? { field } : {}) });
}

/** The whole body, when no single field is at fault (the convention of `invalid_request`). */
export const WHOLE_BODY = '(body)';

/** The parameter the service's problem body names first (`errors` of RFC 9457), if any. */
function serviceField(error: HttpError): string | undefined {
  const errors = error.problem?.errors;
  const first = errors && typeof errors === 'object' ? Object.keys(errors)[0] : undefined;
  return first && first.length <= 256 ? first : undefined;
}

/**
 * What the caller hears when the call to the service fails. Its own mistakes are 4xx; the
 * service's are 502/503/504 with a reason. Never a 500 and never a stack.
 */
export function fromUpstream(error: unknown): WebhookResponse {
  if (error instanceof ValidationError)
    return refuse(422, 'invalid_customer', error.message, error.field);
  if (error instanceof RateLimitError) {
    const retryAfter = Math.max(1, Math.ceil((error.retryAfter ?? 1000) / 1000));
    return json(
      503,
      { error: 'upstream_throttled', message: 'the service is throttling requests; retry later' },
      {
        'retry-after': String(retryAfter),
      },
    );
  }
  if (error instanceof TimeoutError)
    return refuse(504, 'upstream_timeout', 'the service did not answer in time');
  if (error instanceof HttpError) {
    if (error.status === 404)
      return refuse(
        404,
        'cart_not_found',
        'the service has no cart with this vendor order code',
        'vendorOrderCode',
      );
    if (error.status === 400)
      return refuse(422, 'rejected_by_service', error.message, serviceField(error) ?? WHOLE_BODY);
    if (error.status === 503)
      return refuse(503, 'upstream_unavailable', 'the service is temporarily unavailable');
    return refuse(502, 'upstream_error', `the service answered HTTP ${error.status}`);
  }
  if (error instanceof AuthError)
    return refuse(
      502,
      'upstream_auth',
      'the service refused our credentials; operators are alerted',
    );
  if (error instanceof NetworkError)
    return refuse(502, 'upstream_unreachable', 'the service could not be reached');
  return refuse(502, 'upstream_error', 'the call to the service failed');
}
