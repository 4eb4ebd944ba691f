import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  SkywatchClient,
  StaticTokenSource,
  TokenManager,
  type TokenSet,
  Transport,
  userAgent,
} from '../../lib/index.js';
import { startWorld, virtualClock, type World } from './support/world.js';

let w: World;
beforeEach(async () => {
  w = await startWorld();
});
afterEach(() => w.emu.close());

function jwt(claims: Record<string, unknown>, key: string): string {
  const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = `${enc({ alg: 'HS256', typ: 'JWT' })}.${enc(claims)}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}

function manager(extra: Partial<ConstructorParameters<typeof TokenManager>[1]> = {}) {
  const transport = new Transport({
    userAgent: userAgent('test'),
    clock: virtualClock(w.emu).clock,
  });
  return new TokenManager(transport, {
    tokenUrl: w.emu.tokenUrl,
    clientId: w.info.client.clientId,
    clientSecret: w.info.client.clientSecret,
    username: w.ops.username,
    password: w.ops.password,
    scopes: ['SkyStatus.GSM', 'SkyStatus.Reporting'],
    ...extra,
  });
}

describe('Authentication against the emulator', () => {
  it('rotates refresh tokens: the new pair is persisted before use, the old token is dead', async () => {
    const log: string[] = [];
    const saved: TokenSet[] = [];
    const client = w.client({
      hooks: {
        onRequest: (e) => log.push(`request ${e.url.includes('/auth/token') ? 'token' : 'api'}`),
      },
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        username: w.ops.username,
        password: w.ops.password,
        onTokens: async (t) => {
          await new Promise((r) => setTimeout(r, 20));
          saved.push(t);
          log.push('persisted');
        },
      },
    });
    await client.gsmUsageReport(w.gsm.key);
    w.emu.advanceClock(301);
    await client.gsmUsageReport(w.gsm.key);
    expect(log).toEqual([
      'request token',
      'persisted',
      'request api',
      'request token',
      'persisted',
      'request api',
    ]);
    expect(saved[1]?.refreshToken).not.toBe(saved[0]?.refreshToken);
    const tm = client.tokens as TokenManager;
    expect(tm.currentRefreshToken()).toBe(saved[1]?.refreshToken);
    // The first refresh token was used once: presenting it again is refused.
    const stale = manager({
      refreshToken: saved[0]?.refreshToken,
      username: undefined,
      password: undefined,
    });
    await expect(stale.getToken()).rejects.toMatchObject({
      name: 'AuthError',
      code: 'invalid_grant',
      status: 400,
    });
  });

  it('makes one token request for 50 concurrent calls', async () => {
    const client = w.client();
    const reports = await Promise.all(
      Array.from({ length: 50 }, () => client.gsmUsageReport(w.gsm.key)),
    );
    expect(reports).toHaveLength(50);
    expect(w.emu.stats().tokenGrants).toMatchObject({ password: 1, refresh_token: 0 });
  });

  it('reports fewer scopes than asked and refuses an operation lacking its scope before sending', async () => {
    const reports = w.info.users.find((u) => u.username === 'reports@example.com');
    const reduced: string[][] = [];
    const client = w.client({
      hooks: { onScopesReduced: (e) => reduced.push(e.missing) },
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        username: reports?.username ?? '',
        password: reports?.password ?? '',
      },
    });
    expect(await client.grantedScopes()).toEqual(['SkyStatus.Reporting']);
    expect(await client.missingScopes()).toEqual([
      w.emu.baseUrl,
      'SkyStatus.GSM',
      'Console.GSM',
      'ECom.Shop',
    ]);
    expect(reduced).toHaveLength(1);
    const error = await client
      .gsmAgentStatus(w.gsm.key)
      .firstPage()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'insufficient_scope', scope: 'SkyStatus.GSM' });
    expect((error as AuthError).message).toContain('SkyStatus.GSM');
    await expect(client.siteAgentStatus(w.site.key).firstPage()).rejects.toMatchObject({
      scope: w.emu.baseUrl,
    });
    expect(w.emu.stats().byOperation['status.gsm'] ?? 0).toBe(0);
    expect((await client.gsmUsageReport(w.gsm.key)).GSM?.GSMConsoleName).toBe(w.gsm.name);
  });

  it('exchanges an identity-provider JWT (token_exchange grant)', async () => {
    const { issuer, audience, key } = w.info.idp;
    const now = Math.floor(w.emu.now().getTime() / 1000);
    const subject = jwt(
      { iss: issuer, aud: audience, sub: w.ops.username, exp: now + 600, iat: now },
      key,
    );
    const client = w.client({
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        subjectToken: () => subject,
      },
    });
    await client.sitesUsageReport(w.gsm.key);
    expect(w.emu.stats().tokenGrants.token_exchange).toBe(1);
    const forged = w.client({
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        subjectToken: jwt(
          { iss: issuer, aud: audience, sub: w.ops.username, exp: now + 600 },
          'wrong-key',
        ),
      },
    });
    await expect(forged.gsmUsageReport(w.gsm.key)).rejects.toMatchObject({ code: 'invalid_grant' });
  });

  it('authenticates the client in the body and rejects a wrong secret as invalid_client', async () => {
    const body = w.client({
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        clientAuth: 'body',
        username: w.ops.username,
        password: w.ops.password,
      },
    });
    await body.gsmUsageReport(w.gsm.key);
    const wrong = w.client({
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: 'not-the-secret',
        username: w.ops.username,
        password: w.ops.password,
      },
    });
    const error = await wrong.gsmUsageReport(w.gsm.key).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AuthError', code: 'invalid_client', status: 401 });
    expect(String((error as Error).message)).not.toContain('not-the-secret');
  });

  it('falls back to the password grant when the stored refresh token is dead', async () => {
    const fallbacks: string[] = [];
    const client = w.client({
      hooks: { onTokenFallback: (e) => fallbacks.push(e.error) },
      auth: {
        clientId: w.info.client.clientId,
        clientSecret: w.info.client.clientSecret,
        username: w.ops.username,
        password: w.ops.password,
        refreshToken: 'long-dead-refresh-token',
      },
    });
    await client.gsmUsageReport(w.gsm.key);
    expect(fallbacks).toEqual(['invalid_grant']);
    expect(w.emu.stats().tokenGrants.password).toBe(1);
  });

  it('parses the bare scope rendering', async () => {
    await w.emu.close();
    w = await startWorld({ scopeStyle: 'bare' });
    const tm = manager();
    expect((await tm.getToken()).scopes).toEqual(['SkyStatus.GSM', 'SkyStatus.Reporting']);
  });

  it('uses an externally supplied token, reloading it after a 401 without calling the token endpoint', async () => {
    const first = await manager().getToken();
    let current = first.value;
    let loads = 0;
    const source = new StaticTokenSource(() => {
      loads++;
      return current;
    });
    const client = new SkywatchClient({
      baseUrl: w.emu.baseUrl,
      auth: source,
      clock: virtualClock(w.emu).clock,
    });
    await client.gsmUsageReport(w.gsm.key);
    w.emu.revokeTokens();
    current = (await manager().getToken()).value; // the refresher rotated the secret meanwhile
    await client.gsmUsageReport(w.gsm.key);
    expect(loads).toBe(2);
    w.emu.revokeTokens();
    const error = await client.gsmUsageReport(w.gsm.key).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AuthError', code: 'invalid_token', status: 401 });
    expect(w.emu.stats().tokenGrants.password).toBe(2);
  });

  it('passes the strict User-Agent check of the service', async () => {
    await w.emu.close();
    w = await startWorld({ strictUserAgent: true });
    const client = w.client({ userAgentSuffix: 'report-fetcher/1' });
    await expect(client.gsmUsageReport(w.gsm.key)).resolves.toBeDefined();
    expect(w.emu.stats().byOperation['report.gsm']).toBe(1);
  });
});
