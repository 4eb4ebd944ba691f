import { readErrorBody } from '../errors/error-body.js';
import { AuthError, HttpError, RateLimitError } from '../errors/errors.js';
import type { HttpResponse } from '../http/transport.js';

/**
 * Reads the auth-params of a `WWW-Authenticate: Bearer …` header (RFC 6750 §3).
 *
 * @example
 * parseWwwAuthenticate('Bearer realm="x", error="insufficient_scope", scope="A"').scope; // 'A'
 */
export function parseWwwAuthenticate(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const m of header.matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)) {
    if (m[1] && m[2] !== undefined) out[m[1]] = m[2].replace(/\\(.)/g, '$1');
  }
  return out;
}

/**
 * Turns an error answer into the matching error class: 401/403 → AuthError (with the RFC 6750
 * code and, for 403, the missing scope), 429 → RateLimitError, anything else → HttpError. The
 * body is read in any shape (problem details, the real service's envelope, HTML, nothing):
 * its description becomes the message and its `requestId` a field.
 *
 * @example
 * throw errorFromResponse(res, 'GET', url);
 */
export function errorFromResponse(res: HttpResponse, method: string, url: string): Error {
  const body = readErrorBody(res.text, res.headers.get('content-type'));
  const { problem, requestId } = body;
  const options = { summary: body.summary, ...(requestId ? { requestId } : {}) };
  const cause = new HttpError(res.status, method, url, problem, options);
  if (res.status === 401 || res.status === 403) {
    const params = parseWwwAuthenticate(res.headers.get('www-authenticate'));
    const code =
      params.error ?? body.code ?? (res.status === 401 ? 'invalid_token' : 'insufficient_scope');
    const scope = params.scope;
    const description = params.error_description ?? problem?.detail;
    const message =
      code === 'insufficient_scope'
        ? `${cause.url}: the token lacks scope ${scope ?? '(not named)'}`
        : `${cause.url}: token rejected (${code}${description ? `: ${description}` : ''})`;
    return new AuthError(
      message,
      code,
      {
        status: res.status,
        ...(scope ? { scope } : {}),
        ...(description ? { description } : {}),
        ...(requestId ? { requestId } : {}),
      },
      { cause },
    );
  }
  if (res.status === 429)
    return new RateLimitError(method, url, problem, res.retryAfterMs, { cause, ...options });
  return cause;
}
