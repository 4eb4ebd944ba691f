import { ValidationError } from '../errors/errors.js';
import type { Transport } from '../http/transport.js';
import { allOperationScopes } from './scopes.js';
import { TokenManager, type TokenManagerOptions } from './token-manager.js';

/** Credentials for a TokenManager built for a console (token URL and scopes filled in). */
export type CredentialsAuth = Omit<TokenManagerOptions, 'tokenUrl' | 'scopes'> & {
  /** @default every scope the client's operations use */
  scopes?: readonly string[];
  /** @default `${authUrl}/auth/token` */
  tokenUrl?: string;
};

/**
 * The TokenManager that SkywatchClient builds from `auth` credentials: 4.11 at
 * `{auth_url}/auth/token`, asking for every scope the client's operations use unless told
 * otherwise. On its own it serves code that needs tokens and no operation (the token
 * refresher), which then loads neither the operations nor their response schemas.
 *
 * @example
 * const tokens = credentialsTokenManager(transport, { baseUrl, authUrl }, { clientId,
 *   clientSecret, username, password });
 */
export function credentialsTokenManager(
  transport: Transport,
  urls: { baseUrl: string; authUrl?: string | undefined },
  auth: CredentialsAuth,
): TokenManager {
  const authUrl = urls.authUrl?.replace(/\/+$/, '');
  const tokenUrl = auth.tokenUrl ?? (authUrl ? `${authUrl}/auth/token` : undefined);
  if (!tokenUrl) throw new ValidationError('authUrl', 'is required when auth holds credentials');
  return new TokenManager(transport, {
    ...auth,
    tokenUrl,
    scopes: auth.scopes ?? allOperationScopes(urls.baseUrl.replace(/\/+$/, '')),
  });
}
