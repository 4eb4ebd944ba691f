import type { IncomingHttpHeaders } from 'node:http';
import type { Reply } from '../http/respond.js';
import type { EmulatorState } from '../state.js';
import { verifyJwt } from './jwt.js';
import { allowedScopes, grantScopes, renderScopes, ScopeError } from './scopes.js';

/** An RFC 6749 §5.2 error. */
class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const TOKEN_EXCHANGE = ['token_exchange', 'urn:ietf:params:oauth:grant-type:token-exchange'];
const JWT_TYPES = ['jwt', 'urn:ietf:params:oauth:token-type:jwt'];

function required(form: URLSearchParams, name: string): string {
  const value = form.get(name);
  if (value === null || value === '')
    throw new OAuthError(400, 'invalid_request', `${name} is required`);
  return value;
}

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

function grant(state: EmulatorState, form: URLSearchParams, clientId: string) {
  const now = state.clock.now();
  const type = required(form, 'grant_type');
  const { users, idp } = state.options;
  const findUser = (name: string) =>
    users.find((u) => u.username.toLowerCase() === name.toLowerCase());
  if (type === 'password') {
    const username = required(form, 'username');
    const password = required(form, 'password');
    const scope = required(form, 'scope');
    const user = findUser(username);
    if (!user || user.password !== password) {
      throw new OAuthError(400, 'invalid_grant', 'the user name or password is incorrect');
    }
    const scopes = grantScopes(
      scope,
      allowedScopes(user.scopes, state.baseUrl),
      state.baseUrl,
      true,
    );
    return {
      kind: 'password' as const,
      ...state.tokens.issue(user.username, clientId, scopes, now),
      scopes,
    };
  }
  if (TOKEN_EXCHANGE.includes(type)) {
    const subjectToken = required(form, 'subject_token');
    const tokenType = required(form, 'subject_token_type');
    const scope = required(form, 'scope');
    if (!JWT_TYPES.includes(tokenType)) {
      throw new OAuthError(400, 'invalid_request', 'only JWT subject tokens are processed');
    }
    if (scope.includes('*')) {
      throw new OAuthError(
        400,
        'invalid_scope',
        'wildcard scopes are not available for identity providers',
      );
    }
    let subject: string;
    try {
      subject = verifyJwt(subjectToken, { ...idp, now });
    } catch (error) {
      throw new OAuthError(400, 'invalid_grant', (error as Error).message);
    }
    const user = findUser(subject);
    if (!user)
      throw new OAuthError(400, 'invalid_grant', 'the subject token names an unknown user');
    const scopes = grantScopes(
      scope,
      allowedScopes(user.scopes, state.baseUrl),
      state.baseUrl,
      false,
    );
    return {
      kind: 'token_exchange' as const,
      ...state.tokens.issue(user.username, clientId, scopes, now),
      scopes,
    };
  }
  if (type === 'refresh_token') {
    const refreshToken = required(form, 'refresh_token');
    const asked = form.get('scope');
    let scopes: string[] = [];
    const outcome = state.tokens.useRefresh(refreshToken, now, (original) => {
      // RFC 6749 §6: a refresh token is bound to the client it was issued to.
      if (original.clientId !== clientId) {
        throw new OAuthError(
          400,
          'invalid_grant',
          'the refresh token was issued to another client',
        );
      }
      scopes = original.scopes;
      if (!asked) return;
      scopes = grantScopes(asked, original.scopes, state.baseUrl, false);
      if (scopes.length < new Set(asked.split(' ').filter(Boolean)).size) {
        throw new OAuthError(
          400,
          'invalid_scope',
          'a refresh cannot add scopes beyond the original grant',
        );
      }
    });
    if (!outcome.ok) throw new OAuthError(400, 'invalid_grant', outcome.reason);
    const issued = state.tokens.issue(
      outcome.grant.username,
      clientId,
      scopes,
      now,
      outcome.grant.family,
    );
    return { kind: 'refresh_token' as const, ...issued, scopes };
  }
  throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${type} is not supported`);
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
    const headers: Record<string, string> = { ...NO_STORE };
    if (oauth.status === 401) headers['www-authenticate'] = 'Basic realm="skywatch"';
    return {
      status: oauth.status,
      contentType: 'application/json; charset=utf-8',
      headers,
      body: JSON.stringify({ error: oauth.error, error_description: oauth.message }),
    };
  }
}
