import { randomBytes } from 'node:crypto';

export interface AccessGrant {
  username: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
  family: string;
}

interface RefreshGrant extends AccessGrant {
  used: boolean;
}

export type RefreshOutcome = { ok: true; grant: RefreshGrant } | { ok: false; reason: string };

function opaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Issued tokens. Refresh tokens rotate: each use kills the token, and presenting a dead one
 * again revokes its whole family (OAuth 2.0 Security BCP), when reuse detection is on.
 */
export class TokenStore {
  private readonly access = new Map<string, AccessGrant>();
  private readonly refresh = new Map<string, RefreshGrant>();
  private readonly revokedFamilies = new Set<string>();

  constructor(
    private readonly accessTtlMs: number,
    private readonly refreshTtlMs: number,
    private readonly reuseDetection: boolean,
  ) {}

  issue(username: string, clientId: string, scopes: string[], now: number, family = opaqueToken()) {
    this.prune(now);
    const accessToken = opaqueToken();
    const refreshToken = opaqueToken();
    this.access.set(accessToken, {
      username,
      clientId,
      scopes,
      expiresAt: now + this.accessTtlMs,
      family,
    });
    this.refresh.set(refreshToken, {
      username,
      clientId,
      scopes,
      expiresAt: now + this.refreshTtlMs,
      family,
      used: false,
    });
    return { accessToken, refreshToken, expiresIn: this.accessTtlMs / 1000 };
  }

  /** The grant behind a bearer token, or undefined when unknown, expired or revoked. */
  verify(accessToken: string, now: number): AccessGrant | undefined {
    const grant = this.access.get(accessToken);
    if (!grant || grant.expiresAt <= now || this.revokedFamilies.has(grant.family))
      return undefined;
    return grant;
  }

  /**
   * Consumes a refresh token (it is dead afterwards) and tells why when it cannot be used.
   * `check` may throw to refuse the request before the token is consumed.
   */
  useRefresh(
    refreshToken: string,
    now: number,
    check: (grant: AccessGrant) => void = () => {},
  ): RefreshOutcome {
    const grant = this.refresh.get(refreshToken);
    if (!grant) return { ok: false, reason: 'the refresh token is unknown' };
    if (this.revokedFamilies.has(grant.family))
      return { ok: false, reason: 'the refresh token was revoked' };
    if (grant.used) {
      if (this.reuseDetection) this.revokedFamilies.add(grant.family);
      return { ok: false, reason: 'the refresh token was already used' };
    }
    if (grant.expiresAt <= now) return { ok: false, reason: 'the refresh token has expired' };
    // A request refused for its own parameters (scope) must not burn the token.
    check(grant);
    grant.used = true;
    return { ok: true, grant };
  }

  revokeAll(): void {
    for (const grant of this.access.values()) this.revokedFamilies.add(grant.family);
    for (const grant of this.refresh.values()) this.revokedFamilies.add(grant.family);
  }

  /** Revokes every access token but leaves refresh tokens usable (a mid-run revocation). */
  revokeAccessTokens(): void {
    this.access.clear();
  }

  private prune(now: number): void {
    if (this.access.size + this.refresh.size < 50_000) return;
    for (const [token, grant] of this.access) if (grant.expiresAt <= now) this.access.delete(token);
    for (const [token, grant] of this.refresh)
      if (grant.expiresAt <= now) this.refresh.delete(token);
  }
}
