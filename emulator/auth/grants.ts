import type { EmulatorState } from '../state.js';
import type { EmulatorUser } from '../types.js';
import { verifyJwt } from './jwt.js';
import { OAuthError, required } from './oauth-error.js';
import { allowedScopes, grantScopes } from './scopes.js';

const TOKEN_EXCHANGE = ['token_exchange', 'urn:ietf:params:oauth:grant-type:token-exchange'];
const JWT_TYPES = ['jwt', 'urn:ietf:params:oauth:token-type:jwt'];

type GrantKind = 'password' | 'token_exchange' | 'refresh_token';

interface GrantContext {
  state: EmulatorState;
  form: URLSearchParams;
  clientId: string;
  now: number;
}

function issue(
  ctx: GrantContext,
  kind: GrantKind,
  username: string,
  scopes: string[],
  family?: string,
) {
  return {
    kind,
    ...ctx.state.tokens.issue(username, ctx.clientId, scopes, ctx.now, family),
    scopes,
  };
}

function findUser(ctx: GrantContext, name: string): EmulatorUser | undefined {
  return ctx.state.options.users.find((u) => u.username.toLowerCase() === name.toLowerCase());
}

/** Tokens for a user the grant has authenticated, with the scopes the user may have. */
function issueForUser(ctx: GrantContext, kind: GrantKind, user: EmulatorUser, scope: string) {
  const { baseUrl } = ctx.state;
  // Wildcards are for the password grant only (spec 5.1: not for identity providers).
  const scopes = grantScopes(
    scope,
    allowedScopes(user.scopes, baseUrl),
    baseUrl,
    kind === 'password',
  );
  return issue(ctx, kind, user.username, scopes);
}

function passwordGrant(ctx: GrantContext) {
  const username = required(ctx.form, 'username');
  const password = required(ctx.form, 'password');
  const scope = required(ctx.form, 'scope');
  const user = findUser(ctx, username);
  if (!user || user.password !== password) {
    throw new OAuthError(400, 'invalid_grant', 'the user name or password is incorrect');
  }
  return issueForUser(ctx, 'password', user, scope);
}

function tokenExchangeGrant(ctx: GrantContext) {
  const subjectToken = required(ctx.form, 'subject_token');
  const tokenType = required(ctx.form, 'subject_token_type');
  const scope = required(ctx.form, 'scope');
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
    subject = verifyJwt(subjectToken, { ...ctx.state.options.idp, now: ctx.now });
  } catch (error) {
    throw new OAuthError(400, 'invalid_grant', (error as Error).message);
  }
  const user = findUser(ctx, subject);
  if (!user) throw new OAuthError(400, 'invalid_grant', 'the subject token names an unknown user');
  return issueForUser(ctx, 'token_exchange', user, scope);
}

/** Not in the spec; the real service has it. Rotates: the used refresh token dies. */
function refreshGrant(ctx: GrantContext) {
  const refreshToken = required(ctx.form, 'refresh_token');
  // The real service marks scope "Required" on this grant too (real-service.md, Tokens).
  const asked = ctx.state.options.refreshRequiresScope
    ? required(ctx.form, 'scope')
    : ctx.form.get('scope');
  let scopes: string[] = [];
  const outcome = ctx.state.tokens.useRefresh(refreshToken, ctx.now, (original) => {
    // RFC 6749 §6: a refresh token is bound to the client it was issued to.
    if (original.clientId !== ctx.clientId) {
      throw new OAuthError(400, 'invalid_grant', 'the refresh token was issued to another client');
    }
    scopes = original.scopes;
    if (!asked) return;
    // `*` (the real service's forum example sends `scope=*`) stands for the original scopes: a
    // wildcard on a refresh can never widen a grant, so it is refused for no kind of family.
    const names = asked.split(' ').filter(Boolean);
    if (names.length > 0 && names.every((n) => n === '*')) return;
    scopes = grantScopes(asked, original.scopes, ctx.state.baseUrl, false);
    if (scopes.length < new Set(names).size) {
      throw new OAuthError(
        400,
        'invalid_scope',
        'a refresh cannot add scopes beyond the original grant',
      );
    }
  });
  if (!outcome.ok) throw new OAuthError(400, 'invalid_grant', outcome.reason);
  return issue(ctx, 'refresh_token', outcome.grant.username, scopes, outcome.grant.family);
}

/** Runs the grant the form names, for an authenticated client. */
export function grant(state: EmulatorState, form: URLSearchParams, clientId: string) {
  const ctx: GrantContext = { state, form, clientId, now: state.clock.now() };
  const type = required(form, 'grant_type');
  if (type === 'password') return passwordGrant(ctx);
  if (TOKEN_EXCHANGE.includes(type)) return tokenExchangeGrant(ctx);
  if (type === 'refresh_token') return refreshGrant(ctx);
  throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${type} is not supported`);
}
