import type { AccessToken, TokenSource } from '../auth/token-source.js';
import { registerSecret } from '../errors/index.js';
import { TokenSecretSchema } from './secret-shapes.js';
import type { SecretStore } from './secret-store.js';

/**
 * The access token the token refresher keeps in Secrets Manager. Functions read it and never
 * refresh it themselves, so the refresh token has one writer. The cached copy expires with the
 * token; after a 401 the secret is read again (the refresher may have rotated it meanwhile).
 *
 * @example
 * const client = new SkywatchClient({ ..., tokens: new SecretTokenSource(store, arn) });
 */
export class SecretTokenSource implements TokenSource {
  constructor(
    private readonly store: SecretStore,
    private readonly secretId: string,
    /** Treat the token as expired this long before it is, so a request never carries a dying one. */
    private readonly skewMs = 5_000,
  ) {}

  async getToken(): Promise<AccessToken> {
    const secret = await this.store.read(this.secretId, TokenSecretSchema, {
      expiresAt: (t) => Date.parse(t.expiresAt) - this.skewMs,
    });
    registerSecret(secret.accessToken);
    registerSecret(secret.refreshToken);
    if (Date.parse(secret.expiresAt) - this.skewMs <= Date.now()) {
      // Expired by our clock; the service's clock decides, so use it and let a 401 say.
      this.store.invalidate(this.secretId);
    }
    return {
      value: secret.accessToken,
      scopes: secret.scopes,
      expiresAt: Date.parse(secret.expiresAt),
    };
  }

  invalidate(_token: string): void {
    this.store.invalidate(this.secretId);
  }
}
