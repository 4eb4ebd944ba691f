import { readErrorBody } from '../errors/error-body.js';
import { AuthError, SchemaError } from '../errors/errors.js';
import { registerSecret } from '../errors/redact.js';
import type { Transport } from '../http/transport.js';
import { TokenResponse } from '../schemas/token.js';
import * as z from '../zod.js';
import { parseScope } from './scopes.js';
import type { TokenSet } from './token-source.js';

/** AuthError code of a refused token request whose body names no error (HTML, empty, text). */
export const UNREADABLE_TOKEN_ERROR = 'unreadable_response';

/** The application's credentials at the token endpoint. */
export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  /** HTTP Basic (RFC 6749 §2.3.1, recommended) or body fields. @default 'basic' */
  clientAuth?: 'basic' | 'body';
}

/** application/x-www-form-urlencoded encoding of one value (RFC 6749 §2.3.1 asks for it). */
function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/**
 * The Basic header value for client credentials: id and secret form-encoded, then Base64.
 *
 * @example
 * basicAuthorization('my app', 's3cr:t'); // 'Basic bXkrYXBwOnMzY3IlM0F0'
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${formEncode(clientId)}:${formEncode(clientSecret)}`).toString('base64')}`;
}

/**
 * Posts one grant to the token endpoint and returns the token set. Failures raise AuthError
 * with the RFC 6749 error code (`invalid_grant`, `invalid_client`, `invalid_scope`, …).
 *
 * @example
 * const tokens = await requestToken(transport, tokenUrl, client, { grant_type: 'password', … });
 */
export async function requestToken(
  transport: Transport,
  tokenUrl: string,
  client: ClientCredentials,
  params: Record<string, string>,
  /** Scopes to assume when the answer names none (RFC 6749 §5.1: the requested ones). */
  assumedScopes: readonly string[] = parseScope(params.scope),
): Promise<TokenSet> {
  registerSecret(client.clientSecret);
  for (const key of ['password', 'refresh_token', 'subject_token']) registerSecret(params[key]);
  const form = new URLSearchParams(params);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if ((client.clientAuth ?? 'basic') === 'basic') {
    headers.authorization = basicAuthorization(client.clientId, client.clientSecret);
  } else {
    form.set('client_id', client.clientId);
    form.set('client_secret', client.clientSecret);
  }
  const res = await transport.send({
    method: 'POST',
    url: tokenUrl,
    headers,
    body: form.toString(),
  });
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch (error) {
    if (res.status === 200)
      throw new SchemaError('Token response is not JSON', '(root)', { cause: error });
  }
  if (res.status !== 200) {
    // Any shape: RFC 6749 JSON, the real service's envelope, a proxy's HTML page, nothing.
    const read = readErrorBody(res.text, res.headers.get('content-type'));
    // A problem body comes from a gateway that knows nothing of OAuth: its `code` is no
    // RFC 6749 error, so only the status speaks (service-choices.md, token errors).
    const oauthCode = read.form === 'problem' ? undefined : read.code;
    const code =
      oauthCode ??
      (res.status >= 500 || res.status === 429 ? 'server_error' : UNREADABLE_TOKEN_ERROR);
    const description = read.problem?.detail ?? (oauthCode ? undefined : read.summary);
    throw new AuthError(
      `Token request (${params.grant_type}) failed with HTTP ${res.status}: ${code}${description ? ` (${description})` : ''}`,
      code,
      {
        status: res.status,
        ...(description ? { description } : {}),
        ...(read.requestId ? { requestId: read.requestId } : {}),
      },
    );
  }
  const parsed = z.safeParse(TokenResponse, body);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path.join('.') ?? '(root)';
    throw new SchemaError(`Token response breaks its schema at ${path}`, path, {
      cause: parsed.error,
    });
  }
  const t = parsed.data;
  registerSecret(t.access_token);
  registerSecret(t.refresh_token);
  return {
    accessToken: t.access_token,
    ...(t.refresh_token ? { refreshToken: t.refresh_token } : {}),
    expiresAt: transport.clock.now() + t.expires_in * 1000,
    scopes: t.scope === undefined ? [...assumedScopes] : parseScope(t.scope),
  };
}
