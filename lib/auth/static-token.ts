import { registerSecret } from '../errors/redact.js';
import { waitWithin } from '../http/deadline.js';
import type { AccessToken, TokenRequestOptions, TokenSource } from './token-source.js';

export type TokenLoader = () => Promise<string | AccessToken> | string | AccessToken;

/**
 * A token maintained elsewhere (a refresher function writes it to Secrets Manager). It never
 * calls the token endpoint; after a 401 it loads the token again, which may have rotated.
 *
 * @example
 * const source = new StaticTokenSource(async () => JSON.parse(await readSecret()).accessToken);
 */
export class StaticTokenSource implements TokenSource {
  private cached: AccessToken | undefined;
  private loading: Promise<AccessToken> | undefined;

  constructor(
    private readonly load: TokenLoader | string,
    private readonly scopes?: readonly string[],
  ) {}

  async getToken(options: TokenRequestOptions = {}): Promise<AccessToken> {
    if (this.cached) return this.cached;
    // Single flight: concurrent callers share one load; each waits at most to its deadline.
    this.loading ??= this.fetch().finally(() => {
      this.loading = undefined;
    });
    return waitWithin(this.loading, options.maxWaitMs, 'token');
  }

  invalidate(token: string): void {
    if (this.cached?.value === token) this.cached = undefined;
  }

  private async fetch(): Promise<AccessToken> {
    const raw = typeof this.load === 'string' ? this.load : await this.load();
    const token: AccessToken =
      typeof raw === 'string'
        ? { value: raw, ...(this.scopes ? { scopes: this.scopes } : {}) }
        : raw;
    registerSecret(token.value);
    this.cached = token;
    return token;
  }
}
