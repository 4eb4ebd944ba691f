import {
  type CredentialsSecret,
  CredentialsSecretSchema,
  type SecretStore,
  type TokenSecret,
  TokenSecretSchema,
} from '../../lib/aws/index.js';
import {
  ClientEmitter,
  type ClientHooks,
  credentialsTokenManager,
  systemClock,
  type TokenSet,
  Transport,
  userAgent,
} from '../../lib/index.js';

export interface RefreshSettings {
  baseUrl: string;
  authUrl: string;
  credentialsSecretArn: string;
  tokenSecretArn: string;
  /** Refresh when the access token expires within this many ms. */
  refreshAheadMs: number;
  userAgentSuffix?: string | undefined;
  /** Per-attempt timeout of the token request. */
  attemptTimeoutMs?: number;
  now?: () => number;
}

export type RefreshOutcome =
  | { action: 'skipped'; expiresAt: string }
  | { action: 'refreshed' | 'bootstrapped' | 'recovered'; expiresAt: string; scopes: string[] };

async function currentTokens(secrets: SecretStore, arn: string): Promise<TokenSecret | undefined> {
  secrets.invalidate(arn);
  try {
    return await secrets.read(arn, TokenSecretSchema, { maxAgeMs: 0 });
  } catch {
    // An empty or unreadable token secret means there is nothing to refresh: bootstrap.
    return undefined;
  }
}

function toSecret(tokens: TokenSet, now: number): TokenSecret {
  return {
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken ?? '',
    expiresAt: new Date(tokens.expiresAt).toISOString(),
    scopes: tokens.scopes,
    issuedAt: new Date(now).toISOString(),
  };
}

/**
 * One refresher run: rotate the refresh token and save the new pair to the token secret
 * *before* anything uses it, so a crash can never leave only a dead refresh token saved. A
 * refresh that fails in a way the password grant cures (dead token, refused form or scope, an
 * unreadable answer) falls back to it (the hooks say so); an empty secret is bootstrapped with
 * the password or token-exchange grant.
 */
export async function refreshTokens(
  secrets: SecretStore,
  settings: RefreshSettings,
  hooks: ClientHooks = {},
): Promise<RefreshOutcome> {
  const now = settings.now ?? Date.now;
  const current = await currentTokens(secrets, settings.tokenSecretArn);
  if (current && Date.parse(current.expiresAt) - now() > settings.refreshAheadMs) {
    return { action: 'skipped', expiresAt: current.expiresAt };
  }
  const creds: CredentialsSecret = await secrets.read(
    settings.credentialsSecretArn,
    CredentialsSecretSchema,
    {
      maxAgeMs: 60_000,
    },
  );
  let fellBack = false;
  // The token manager alone, as SkywatchClient builds it, without the client's operations: the
  // refresher's cold start then skips their response schemas and the XML codec.
  const transport = new Transport({
    userAgent: userAgent(['token-refresher', settings.userAgentSuffix].filter(Boolean).join(' ')),
    clock: systemClock,
    events: new ClientEmitter({
      ...hooks,
      onTokenFallback: (e) => {
        fellBack = true;
        hooks.onTokenFallback?.(e);
      },
    }),
    // Token requests are POSTs: the transport resends one only when it provably never left (a
    // connect error). A refresh answered 5xx may still have rotated the token, so a blind
    // retry could present a dead refresh token; Lambda's retry and the password fallback
    // recover instead.
    ...(settings.attemptTimeoutMs === undefined
      ? {}
      : { attemptTimeoutMs: settings.attemptTimeoutMs }),
  });
  const tokens = credentialsTokenManager(
    transport,
    { baseUrl: settings.baseUrl, authUrl: settings.authUrl },
    {
      clientId: creds.clientId,
      clientSecret: creds.clientSecret,
      clientAuth: creds.clientAuth,
      ...(creds.username && creds.password
        ? { username: creds.username, password: creds.password }
        : {}),
      ...(creds.subjectToken ? { subjectToken: creds.subjectToken } : {}),
      ...(creds.scope ? { scopes: creds.scope.split(' ').filter(Boolean) } : {}),
      // The refresh asks for the scopes granted with this refresh token (saved beside it).
      ...(current
        ? { refreshToken: current.refreshToken, refreshTokenScopes: current.scopes }
        : {}),
      onTokens: (pair) => secrets.write(settings.tokenSecretArn, toSecret(pair, now())),
    },
  );
  const token = await tokens.getToken();
  const action = !current ? 'bootstrapped' : fellBack ? 'recovered' : 'refreshed';
  return {
    action,
    expiresAt: new Date(token.expiresAt ?? now()).toISOString(),
    scopes: [...(token.scopes ?? [])],
  };
}
