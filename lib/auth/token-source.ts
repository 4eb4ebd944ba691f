/** An access token and, when known, the scopes it carries. */
export interface AccessToken {
  value: string;
  /** Granted scopes; when given, operations check them before sending a request. */
  scopes?: readonly string[];
  /** Epoch ms when it expires, if known. */
  expiresAt?: number;
}

/**
 * Where the client gets its bearer token. `TokenManager` obtains and renews tokens itself;
 * `StaticTokenSource` hands out a token someone else maintains (e.g. read from Secrets Manager).
 */
export interface TokenSource {
  getToken(): Promise<AccessToken>;
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
