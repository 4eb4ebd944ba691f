import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from '../http/respond.js';
import type { EmulatorState } from '../state.js';
import { grant } from './grants.js';
import { OAuthError } from './oauth-error.js';
import { renderScopes, ScopeError } from './scopes.js';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
/** Client credentials from HTTP Basic (form-urlencoded parts, RFC 6749 §2.3.1) or the body. */
function authenticateClient(
  state: EmulatorState,
  headers: IncomingHttpHeaders,
  form: URLSearchParams,
): string {
  const basic = /^Basic\s+(.+)$/i.exec(headers.authorization ?? '');
  const inBody = form.has('client_id') || form.has('client_secret');
  if (basic && inBody) {
    throw new OAuthError(
      400,
      'invalid_request',
      'use one client authentication method, not Basic and body fields',
    );
  }
  let id: string | undefined;
  let secret: string | undefined;
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' '));
    } catch {
      id = undefined;
    }
  } else {
    id = form.get('client_id') ?? undefined;
    secret = form.get('client_secret') ?? undefined;
  }
  const known = state.options.clients.some((c) => c.clientId === id && c.clientSecret === secret);
  if (!known || id === undefined)
    throw new OAuthError(401, 'invalid_client', 'client authentication failed');
  return id;
}

/** POST {auth_url}/auth/token (spec 4.11, section 5). */
export function tokenEndpoint(
  state: EmulatorState,
  headers: IncomingHttpHeaders,
  body: string,
): Reply {
  try {
    const type = (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded') {
      throw new OAuthError(
        400,
        'invalid_request',
        'the body must be application/x-www-form-urlencoded',
      );
    }
    const form = new URLSearchParams(body);
    // RFC 6749 §3.2: parameters must not be included more than once.
    const names = [...form.keys()];
    const repeated = names.find((name, i) => names.indexOf(name) !== i);
    if (repeated)
      throw new OAuthError(400, 'invalid_request', `${repeated} is included more than once`);
    const clientId = authenticateClient(state, headers, form);
    const issued = grant(state, form, clientId);
    state.stats.tokenGrants[issued.kind]++;
    return {
      status: 200,
      contentType: 'application/json; charset=utf-8',
      headers: NO_STORE,
      body: JSON.stringify({
        access_token: issued.accessToken,
        token_type: 'bearer',
        expires_in: issued.expiresIn,
        refresh_token: issued.refreshToken,
        scope: renderScopes(issued.scopes, state.options.scopeStyle),
      }),
    };
  } catch (error) {
    const oauth =
      error instanceof OAuthError
        ? error
        : error instanceof ScopeError
          ? new OAuthError(400, 'invalid_scope', error.message)
          : new OAuthError(400, 'invalid_request', 'the request could not be read');
    state.stats.tokenGrants.failed++;
    return oauthErrorReply(oauth);
  }
}

/**
 * The RFC 6749 §5.2 answer to a refused token request: every refusal the token endpoint makes
 * itself (grants, client authentication, and before them method, User-Agent and body size).
 */
export function oauthErrorReply(oauth: OAuthError): Reply {
  const headers: Record<string, string> = { ...NO_STORE, ...oauth.headers };
  if (oauth.status === 401) headers['www-authenticate'] = 'Basic realm="skywatch"';
  return {
    status: oauth.status,
    contentType: 'application/json; charset=utf-8',
    headers,
    body: JSON.stringify({ error: oauth.error, error_description: oauth.message }),
  };
}
