/** An access token and, when known, the scopes it carries. */
export interface AccessToken {
  value: string;
  /** Granted scopes; when given, operations check them before sending a request. */
  scopes?: readonly string[];
  /** Epoch ms when it expires, if known. */
  expiresAt?: number;
}

/** What a caller asks of getToken. */
export interface TokenRequestOptions {
  /**
   * The rest of the caller's deadline in ms: past it the caller stops waiting for a token and
   * gets TimeoutError('deadline'). Relative, so each source measures it on its own clock.
   */
  maxWaitMs?: number;
}

/**
 * Where the client gets its bearer token. `TokenManager` obtains and renews tokens itself;
 * `StaticTokenSource` hands out a token someone else maintains (e.g. read from Secrets Manager).
 */
export interface TokenSource {
  /**
   * A token to send. The client stops waiting at the call's deadline whatever the source does;
   * `options` lets a source stop its own work there too (sources written before it may ignore
   * it).
   */
  getToken(options?: TokenRequestOptions): Promise<AccessToken>;
  /** The service rejected `token`; the next getToken must not return it again from cache. */
  invalidate(token: string): void;
}

/** A token pair worth persisting; handed to `onTokens` before it is used. */
export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms. */
  expiresAt: number;
  scopes: string[];
}
