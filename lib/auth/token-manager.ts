import { AuthError, SchemaError, SkywatchError, TimeoutError } from '../errors/errors.js';
import { waitWithin } from '../http/deadline.js';
import type { Transport } from '../http/transport.js';
import { missingScopes } from './scopes.js';
import { type ClientCredentials, requestToken, UNREADABLE_TOKEN_ERROR } from './token-endpoint.js';
import type { AccessToken, TokenRequestOptions, TokenSet, TokenSource } from './token-source.js';

export interface TokenManagerOptions extends ClientCredentials {
  /** `{auth_url}/auth/token`. */
  tokenUrl: string;
  /** Scopes to ask for (space-delimited on the wire); `*` and other wildcards are sent as is. */
  scopes: readonly string[];
  /** Password grant credentials; also the fallback when a refresh token is dead. */
  username?: string;
  password?: string;
  /** Token-exchange grant: the identity provider's JWT (a function so it can be fresh). */
  subjectToken?: string | (() => Promise<string> | string);
  /** @default 'jwt' */
  subjectTokenType?: string;
  /** A refresh token to start from (e.g. read from Secrets Manager). */
  refreshToken?: string;
  /**
   * The scopes granted with `refreshToken` (saved beside it): the first refresh asks for them.
   * @default the scopes of `scopes`
   */
  refreshTokenScopes?: readonly string[];
  /**
   * Persists a new token pair. Awaited before the pair is used, so a crash can never leave only
   * a dead refresh token saved; if it throws, the pair is not used.
   */
  onTokens?: (tokens: TokenSet) => Promise<void> | void;
  /**
   * Renew this many seconds before expiry, but never earlier than half-way through a token's
   * lifetime: a skew as long as the lifetime would otherwise renew on every call. @default 30
   */
  skewSeconds?: number;
}

type Grant = 'password' | 'token_exchange' | 'refresh_token';

/**
 * Refresh failures a password grant can cure: the refresh token is dead (`invalid_grant`), the
 * request was refused for its form or scope (`invalid_request`, `invalid_scope`), or the answer
 * could not be read. A refused client (`invalid_client`) or a failing service is not cured by
 * another grant with the same client, so those are raised.
 */
function curableByPassword(error: unknown): error is AuthError | SchemaError {
  if (error instanceof SchemaError) return true;
  return (
    error instanceof AuthError &&
    ['invalid_grant', 'invalid_request', 'invalid_scope', UNREADABLE_TOKEN_ERROR].includes(
      error.code,
    )
  );
}

/**
 * Obtains, caches and renews access tokens: renews ahead of expiry, shares one token request
 * among concurrent callers, rotates refresh tokens through `onTokens`, sends `scope` on every
 * grant, and falls back to the password grant when a refresh fails in a way it can cure.
 *
 * @example
 * const tokens = new TokenManager(transport, { tokenUrl, clientId, clientSecret,
 *   username, password, scopes: ['SkyStatus.GSM'] });
 * const { value } = await tokens.getToken();
 */
export class TokenManager implements TokenSource {
  private current: TokenSet | undefined;
  // When the current token is renewed: its expiry less the (capped) skew.
  private renewAt = Number.NEGATIVE_INFINITY;
  private refreshToken: string | undefined;
  private inflight: Promise<TokenSet> | undefined;
  private invalidated = false;
  // Survives invalidate(): a refresh answer without `scope` keeps these.
  private lastScopes: string[] | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly options: TokenManagerOptions,
  ) {
    this.refreshToken = options.refreshToken;
    if (options.refreshTokenScopes?.length) this.lastScopes = [...options.refreshTokenScopes];
  }

  /**
   * The cached token, or a new one. With `maxWaitMs` the caller stops waiting at its deadline;
   * the shared token request goes on for the other callers and for the cache.
   */
  async getToken(options: TokenRequestOptions = {}): Promise<AccessToken> {
    const now = this.transport.clock.now();
    if (this.current && now < this.renewAt) return this.toAccess(this.current);
    if (options.maxWaitMs !== undefined && options.maxWaitMs <= 0) {
      throw new TimeoutError('deadline passed before a token could be requested', 'deadline');
    }
    const reason = this.invalidated ? 'invalidated' : this.current ? 'expiring' : 'initial';
    this.inflight ??= this.renew(reason).finally(() => {
      this.inflight = undefined;
    });
    return this.toAccess(await waitWithin(this.inflight, options.maxWaitMs, 'token'));
  }

  invalidate(token: string): void {
    if (this.current?.accessToken === token) {
      this.current = undefined;
      this.invalidated = true;
    }
  }

  /** Scopes of the current token (empty before the first one). */
  grantedScopes(): string[] {
    return [...(this.current?.scopes ?? [])];
  }

  /** Requested scopes the service did not grant. */
  missingScopes(): string[] {
    return this.current ? missingScopes(this.options.scopes, this.current.scopes) : [];
  }

  /** The refresh token now in use (after rotation, the newest). */
  currentRefreshToken(): string | undefined {
    return this.refreshToken;
  }

  private toAccess(t: TokenSet): AccessToken {
    return { value: t.accessToken, scopes: t.scopes, expiresAt: t.expiresAt };
  }

  private async renew(reason: 'initial' | 'expiring' | 'invalidated'): Promise<TokenSet> {
    const tokens = await this.obtain(reason);
    // Read before onTokens runs, so a slow persist does not shorten the lifetime seen.
    const receivedAt = this.transport.clock.now();
    if (this.options.onTokens) {
      try {
        await this.options.onTokens(tokens);
      } catch (error) {
        throw new SkywatchError('onTokens failed to persist the new token pair; it was not used', {
          cause: error,
        });
      }
    }
    if (tokens.refreshToken) this.refreshToken = tokens.refreshToken;
    this.current = tokens;
    const lifetime = tokens.expiresAt - receivedAt;
    const skew = Math.min((this.options.skewSeconds ?? 30) * 1000, lifetime / 2);
    this.renewAt = tokens.expiresAt - skew;
    this.lastScopes = tokens.scopes;
    this.invalidated = false;
    const missing = missingScopes(this.options.scopes, tokens.scopes);
    if (missing.length > 0) {
      this.transport.events.emit('scopesReduced', {
        requested: [...this.options.scopes],
        granted: tokens.scopes,
        missing,
      });
    }
    return tokens;
  }

  /** The grant the configuration allows: refresh (password when it is dead), password, exchange. */
  private async obtain(reason: 'initial' | 'expiring' | 'invalidated'): Promise<TokenSet> {
    if (this.refreshToken) {
      try {
        return await this.grant('refresh_token', reason);
      } catch (error) {
        if (!curableByPassword(error) || !this.canUsePassword()) throw error;
        this.refreshToken = undefined;
        this.transport.events.emit('tokenFallback', {
          from: 'refresh_token',
          to: 'password',
          error: error instanceof AuthError ? error.code : UNREADABLE_TOKEN_ERROR,
          ...(error instanceof AuthError && error.status !== undefined
            ? { status: error.status }
            : {}),
        });
        return await this.grant('password', reason);
      }
    }
    if (this.canUsePassword()) return this.grant('password', reason);
    if (this.options.subjectToken !== undefined) return this.grant('token_exchange', reason);
    throw new AuthError(
      'No way to obtain a token: give credentials, a subject token or a refresh token',
      'no_credentials',
    );
  }

  /**
   * The `scope` of a refresh: a wildcard configuration as configured (`*` keeps meaning every
   * scope of the grant); otherwise the scopes last granted, since RFC 6749 §6 lets a refresh ask
   * for no scope beyond the original grant and a reduced grant would then fail `invalid_scope`.
   */
  private refreshScope(): string {
    const { scopes } = this.options;
    if (scopes.some((s) => s.includes('*'))) return scopes.join(' ');
    return (this.lastScopes?.length ? this.lastScopes : scopes).join(' ');
  }

  private canUsePassword(): boolean {
    return this.options.username !== undefined && this.options.password !== undefined;
  }

  private async grant(
    grant: Grant,
    reason: 'initial' | 'expiring' | 'invalidated',
  ): Promise<TokenSet> {
    const o = this.options;
    const scope = o.scopes.join(' ');
    let params: Record<string, string>;
    if (grant === 'refresh_token') {
      // The real service requires scope on every grant, this one included.
      params = {
        grant_type: 'refresh_token',
        refresh_token: this.refreshToken ?? '',
        scope: this.refreshScope(),
      };
    } else if (grant === 'password') {
      params = {
        grant_type: 'password',
        username: o.username ?? '',
        password: o.password ?? '',
        scope,
      };
    } else {
      const subject =
        typeof o.subjectToken === 'function' ? await o.subjectToken() : (o.subjectToken ?? '');
      params = {
        grant_type: 'token_exchange',
        subject_token: subject,
        subject_token_type: o.subjectTokenType ?? 'jwt',
        scope,
      };
    }
    this.transport.events.emit('tokenRenewal', { grant, reason });
    // A refresh without `scope` keeps the original grant's scopes.
    const assumed = grant === 'refresh_token' ? (this.lastScopes ?? o.scopes) : o.scopes;
    return requestToken(this.transport, o.tokenUrl, o, params, assumed);
  }
}
