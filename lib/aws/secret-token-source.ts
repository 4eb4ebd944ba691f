import { setTimeout as sleep } from 'node:timers/promises';
import type { AccessToken, TokenRequestOptions, TokenSource } from '../auth/token-source.js';
import { registerSecret } from '../errors/index.js';
import { TokenSecretSchema } from './secret-shapes.js';
import type { SecretStore } from './secret-store.js';

export interface SecretTokenSourceOptions {
  /** Treat the token as expired this long before it is. @default 5000 */
  skewMs?: number;
  /**
   * How long to wait for the refresher to store a new token when the stored one is expired or
   * was just rejected. The refresher runs once per token lifetime, so a function can start in
   * the seconds between expiry and rotation; waiting beats failing the run. A caller's
   * `maxWaitMs` (its deadline) shortens it. @default 60000
   */
  awaitFreshMs?: number;
  /** Between two reads of the secret while waiting. @default 2000 */
  pollMs?: number;
  now?: () => number;
}

/**
 * The access token the token refresher keeps in Secrets Manager. Functions read it and never
 * refresh it themselves, so the refresh token has one writer. The cached copy expires with the
 * token; after a 401 the secret is read again, and if it still holds the rejected (or an
 * expired) token, read again until the refresher has rotated it or the wait is over.
 *
 * @example
 * const client = new SkywatchClient({ ..., auth: new SecretTokenSource(store, arn) });
 */
export class SecretTokenSource implements TokenSource {
  private rejected: string | undefined;

  constructor(
    private readonly store: SecretStore,
    private readonly secretId: string,
    private readonly options: SecretTokenSourceOptions = {},
  ) {}

  async getToken(request: TokenRequestOptions = {}): Promise<AccessToken> {
    const now = this.options.now ?? Date.now;
    const skew = this.options.skewMs ?? 5_000;
    // Never wait for the refresher past the caller's deadline.
    const wait = Math.min(this.options.awaitFreshMs ?? 60_000, request.maxWaitMs ?? Infinity);
    const giveUpAt = now() + Math.max(0, wait);
    for (;;) {
      const secret = await this.store.read(this.secretId, TokenSecretSchema, {
        expiresAt: (t) => Date.parse(t.expiresAt) - skew,
      });
      registerSecret(secret.accessToken);
      registerSecret(secret.refreshToken);
      const stale =
        secret.accessToken === this.rejected || Date.parse(secret.expiresAt) - skew <= now();
      if (!stale || now() >= giveUpAt) {
        // Past the wait, hand it out anyway: the service's clock has the last word.
        return {
          value: secret.accessToken,
          scopes: secret.scopes,
          expiresAt: Date.parse(secret.expiresAt),
        };
      }
      this.store.invalidate(this.secretId);
      await sleep(Math.min(this.options.pollMs ?? 2_000, Math.max(0, giveUpAt - now())));
    }
  }

  invalidate(token: string): void {
    this.rejected = token;
    this.store.invalidate(this.secretId);
  }
}
