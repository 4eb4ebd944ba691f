import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  ClientEmitter,
  type ClientEvents,
  TimeoutError,
  TokenManager,
  type TokenManagerOptions,
  type TokenSet,
  Transport,
} from '../../lib/index.js';
import {
  closeLocalServers,
  fakeClock,
  json,
  type LocalServer,
  localServer,
  type Seen,
} from './support/local-server.js';

let server: LocalServer | undefined;
afterEach(closeLocalServers);

const SECRET = 'client-secret-for-unit';
const PASSWORD = 'user-password-for-unit';

/** A token endpoint that rotates refresh tokens and can be told to refuse them. */
async function tokenServer(
  opts: {
    scope?: string;
    deadRefresh?: boolean;
    delayMs?: number;
    refreshWithoutScope?: boolean;
  } = {},
) {
  let n = 0;
  return localServer(async (req: Seen, res) => {
    const form = new URLSearchParams(req.body);
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    if (form.get('grant_type') === 'refresh_token' && opts.deadRefresh) {
      json(res, 400, { error: 'invalid_grant', error_description: 'refresh token is dead' });
      return;
    }
    n++;
    json(res, 200, {
      access_token: `access-${n}-xxxxxxxx`,
      token_type: 'bearer',
      expires_in: 300,
      refresh_token: `refresh-${n}-xxxxxxxx`,
      ...(opts.refreshWithoutScope && form.get('grant_type') === 'refresh_token'
        ? {}
        : { scope: opts.scope ?? '["SkyStatus.GSM","SkyStatus.Reporting"]' }),
    });
  });
}

function manager(url: string, extra: Partial<TokenManagerOptions> = {}, fc = fakeClock()) {
  const events = new ClientEmitter();
  const seen: Array<[keyof ClientEvents, unknown]> = [];
  for (const name of ['tokenRenewal', 'tokenFallback', 'scopesReduced'] as const) {
    events.on(name, (e) => seen.push([name, e]));
  }
  const transport = new Transport({ userAgent: 'test', clock: fc.clock, events });
  const m = new TokenManager(transport, {
    tokenUrl: `${url}/auth/token`,
    clientId: 'my app',
    clientSecret: SECRET,
    username: 'ops@example.com',
    password: PASSWORD,
    scopes: ['SkyStatus.GSM', 'SkyStatus.Reporting'],
    ...extra,
  });
  return { m, seen, fc };
}

describe('Class: TokenManager', () => {
  it('sends the password grant with form-encoded Basic client authentication', async () => {
    server = await tokenServer();
    const { m } = manager(server.url, { clientSecret: 's3cr:t' });
    const token = await m.getToken();
    expect(token.value).toBe('access-1-xxxxxxxx');
    expect(token.scopes).toEqual(['SkyStatus.GSM', 'SkyStatus.Reporting']);
    const req = server.seen[0];
    const basic = Buffer.from(String(req?.headers.authorization).slice(6), 'base64').toString();
    expect(basic).toBe('my+app:s3cr%3At');
    expect(Object.fromEntries(new URLSearchParams(req?.body))).toEqual({
      grant_type: 'password',
      username: 'ops@example.com',
      password: PASSWORD,
      scope: 'SkyStatus.GSM SkyStatus.Reporting',
    });
  });

  it('can send client credentials in the body instead', async () => {
    server = await tokenServer();
    const { m } = manager(server.url, { clientAuth: 'body' });
    await m.getToken();
    const form = new URLSearchParams(server.seen[0]?.body);
    expect(server.seen[0]?.headers.authorization).toBeUndefined();
    expect([form.get('client_id'), form.get('client_secret')]).toEqual(['my app', SECRET]);
  });

  it('shares one token request among 50 concurrent callers', async () => {
    server = await tokenServer({ delayMs: 30 });
    const { m } = manager(server.url);
    const tokens = await Promise.all(Array.from({ length: 50 }, () => m.getToken()));
    expect(new Set(tokens.map((t) => t.value)).size).toBe(1);
    expect(server.seen).toHaveLength(1);
  });

  it('renews ahead of expiry by the skew, through the refresh grant, persisting first', async () => {
    server = await tokenServer();
    const persisted: TokenSet[] = [];
    const { m, fc, seen } = manager(server.url, {
      skewSeconds: 30,
      onTokens: async (t) => {
        await new Promise((r) => setTimeout(r, 20));
        persisted.push(t);
      },
    });
    await m.getToken();
    fc.advance(269_000);
    expect((await m.getToken()).value).toBe('access-1-xxxxxxxx');
    fc.advance(2_000);
    const renewed = await m.getToken();
    expect(renewed.value).toBe('access-2-xxxxxxxx');
    expect(persisted.map((p) => p.refreshToken)).toEqual([
      'refresh-1-xxxxxxxx',
      'refresh-2-xxxxxxxx',
    ]);
    const second = new URLSearchParams(server.seen[1]?.body);
    expect(second.get('grant_type')).toBe('refresh_token');
    expect(second.get('refresh_token')).toBe('refresh-1-xxxxxxxx');
    expect(m.currentRefreshToken()).toBe('refresh-2-xxxxxxxx');
    expect(seen.filter(([n]) => n === 'tokenRenewal').map(([, e]) => e)).toEqual([
      { grant: 'password', reason: 'initial' },
      { grant: 'refresh_token', reason: 'expiring' },
    ]);
  });

  it('caps a skew at or above the token lifetime at half the lifetime', async () => {
    server = await tokenServer(); // expires_in: 300
    const { m, fc } = manager(server.url, { skewSeconds: 600 });
    const first = await m.getToken();
    expect((await m.getToken()).value).toBe(first.value);
    fc.advance(149_000);
    expect((await m.getToken()).value).toBe(first.value);
    expect(server.seen).toHaveLength(1);
    fc.advance(2_000);
    expect((await m.getToken()).value).toBe('access-2-xxxxxxxx');
    expect(server.seen).toHaveLength(2);
  });

  it('does not use a pair that onTokens failed to persist', async () => {
    server = await tokenServer();
    const { m } = manager(server.url, {
      onTokens: () => {
        throw new Error('disk full');
      },
    });
    await expect(m.getToken()).rejects.toThrow(/onTokens failed/);
    expect(m.grantedScopes()).toEqual([]);
  });

  it('falls back to the password grant when the refresh token is dead, and says so', async () => {
    server = await tokenServer({ deadRefresh: true });
    const { m, seen } = manager(server.url, { refreshToken: 'dead-refresh-token' });
    expect((await m.getToken()).value).toBe('access-1-xxxxxxxx');
    expect(seen).toContainEqual([
      'tokenFallback',
      { from: 'refresh_token', to: 'password', error: 'invalid_grant', status: 400 },
    ]);
  });

  it('raises AuthError(invalid_grant) for a dead refresh token without credentials', async () => {
    server = await tokenServer({ deadRefresh: true });
    const { m } = manager(server.url, { refreshToken: 'dead-refresh-token', password: undefined });
    const error = await m.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('invalid_grant');
    expect((error as AuthError).status).toBe(400);
    expect(inspect(error)).not.toContain('dead-refresh-token');
    expect(inspect(error)).not.toContain(SECRET);
  });

  it('reports fewer scopes than asked', async () => {
    server = await tokenServer({ scope: '[SkyStatus.Reporting]' });
    const { m, seen } = manager(server.url);
    await m.getToken();
    expect(m.missingScopes()).toEqual(['SkyStatus.GSM']);
    expect(seen).toContainEqual([
      'scopesReduced',
      {
        requested: ['SkyStatus.GSM', 'SkyStatus.Reporting'],
        granted: ['SkyStatus.Reporting'],
        missing: ['SkyStatus.GSM'],
      },
    ]);
  });

  it('keeps the granted scopes when a refresh answer names none', async () => {
    server = await tokenServer({ scope: '[SkyStatus.Reporting]', refreshWithoutScope: true });
    const { m } = manager(server.url);
    const first = await m.getToken();
    m.invalidate(first.value);
    expect((await m.getToken()).scopes).toEqual(['SkyStatus.Reporting']);
    expect(new URLSearchParams(server.seen[1]?.body).get('grant_type')).toBe('refresh_token');
  });

  it('uses the token-exchange grant with a fresh subject token', async () => {
    server = await tokenServer();
    const { m } = manager(server.url, {
      username: undefined,
      password: undefined,
      subjectToken: async () => 'jwt.header.sig',
    });
    await m.getToken();
    const form = Object.fromEntries(new URLSearchParams(server.seen[0]?.body));
    expect(form).toMatchObject({
      grant_type: 'token_exchange',
      subject_token: 'jwt.header.sig',
      subject_token_type: 'jwt',
    });
  });

  it('stops a caller waiting at its maxWaitMs while the shared request serves the rest', async () => {
    server = await tokenServer({ delayMs: 300 });
    const { m } = manager(server.url);
    const late = m.getToken({ maxWaitMs: 20 });
    const patient = m.getToken();
    const error = await late.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe('deadline');
    expect((await patient).value).toBe('access-1-xxxxxxxx');
    expect((await m.getToken({ maxWaitMs: 20 })).value).toBe('access-1-xxxxxxxx');
    expect(server.seen).toHaveLength(1);
  });

  it('sends no token request once the deadline has passed', async () => {
    server = await tokenServer();
    const { m } = manager(server.url);
    await expect(m.getToken({ maxWaitMs: 0 })).rejects.toMatchObject({
      name: 'TimeoutError',
      kind: 'deadline',
    });
    expect(server.seen).toHaveLength(0);
  });

  it('renews after invalidate of the current token only', async () => {
    server = await tokenServer();
    const { m } = manager(server.url);
    const first = await m.getToken();
    m.invalidate('some-other-token');
    expect((await m.getToken()).value).toBe(first.value);
    m.invalidate(first.value);
    expect((await m.getToken()).value).toBe('access-2-xxxxxxxx');
  });
});
