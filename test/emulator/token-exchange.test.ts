import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Emulator, type Json, OPS, postToken, signJwt, start } from './helpers.js';

let em: Emulator;

beforeAll(async () => {
  em = await start();
});
afterAll(() => em.close());

function claims(overrides: Json = {}): Json {
  const { idp } = em.info();
  const now = Math.floor(em.now().getTime() / 1000);
  return {
    iss: idp.issuer,
    aud: idp.audience,
    sub: OPS,
    iat: now - 5,
    exp: now + 600,
    ...overrides,
  };
}

function exchange(subjectToken: string, overrides: Record<string, string> = {}) {
  return postToken(em, {
    grant_type: 'token_exchange',
    subject_token: subjectToken,
    subject_token_type: 'jwt',
    scope: 'SkyStatus.GSM SecureCloud.Usage',
    ...overrides,
  });
}

function key(): string {
  return em.info().idp.key;
}

describe('Token endpoint: token-exchange grant', () => {
  it('exchanges a valid HS256 JWT for a token with the requested scopes', async () => {
    const res = await exchange(signJwt(claims(), key()));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.expires_in).toBe(300);
    expect(res.body.scope).toBe('["SkyStatus.GSM","SecureCloud.Usage"]');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const gsmKey = em.info().gsms[0]?.key ?? '';
    const page = await call(em, `/api/status/gsm/${gsmKey}`, {
      token: String(res.body.access_token),
      query: { batchSize: 1 },
    });
    expect(page.status).toBe(200);
  });

  it('grants only scopes the subject user may have', async () => {
    const jwt = signJwt(claims({ sub: 'reports@example.com' }), key());
    const partial = await exchange(jwt, { scope: 'SkyStatus.GSM SkyStatus.Reporting' });
    expect(partial.status).toBe(200);
    expect(partial.body.scope).toBe('["SkyStatus.Reporting"]');
    const none = await exchange(jwt, { scope: 'SkyStatus.GSM' });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('invalid_scope');
  });

  it('returns a refresh token that can be used', async () => {
    const res = await exchange(signJwt(claims(), key()));
    expect(typeof res.body.refresh_token).toBe('string');
    const refreshed = await postToken(em, {
      grant_type: 'refresh_token',
      refresh_token: String(res.body.refresh_token),
    });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.scope).toBe(res.body.scope);
  });

  it('accepts the RFC 8693 grant and token-type URNs as aliases', async () => {
    const res = await exchange(signJwt(claims(), key()), {
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token_type: 'urn:ietf:params:oauth:token-type:jwt',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it.each([
    ['a JWT signed with another key', () => signJwt(claims(), 'not-the-idp-key')],
    [
      'an expired JWT',
      () => signJwt(claims({ exp: Math.floor(em.now().getTime() / 1000) - 10 }), key()),
    ],
    [
      'a JWT from another issuer',
      () => signJwt(claims({ iss: 'https://evil.example.com' }), key()),
    ],
    ['a JWT for another audience', () => signJwt(claims({ aud: 'someone-else' }), key())],
    ['a JWT naming an unknown user', () => signJwt(claims({ sub: 'ghost@example.com' }), key())],
    ['a JWT without exp', () => signJwt(claims({ exp: undefined }), key())],
    ['an unsigned (alg none) JWT', () => signJwt(claims(), key(), 'none')],
    ['a string that is not a JWT', () => 'not-a-jwt'],
  ])('rejects %s with 400 invalid_grant', async (_, make) => {
    const res = await exchange(make());
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('rejects a JWT whose payload was altered after signing', async () => {
    const [head, , sig] = signJwt(claims(), key()).split('.');
    const forged = Buffer.from(JSON.stringify(claims({ sub: 'reports@example.com' }))).toString(
      'base64url',
    );
    const res = await exchange(`${head}.${forged}.${sig}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it.each(['*', 'SkyStatus.*', 'SkyStatus.GSM *'])(
    'refuses the wildcard scope %j with 400 invalid_scope',
    async (scope) => {
      const res = await exchange(signJwt(claims(), key()), { scope });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_scope');
    },
  );

  it('rejects an unknown scope name with 400 invalid_scope', async () => {
    const res = await exchange(signJwt(claims(), key()), { scope: 'Nope.Scope' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scope');
  });

  it.each(['subject_token', 'subject_token_type', 'scope'])(
    'rejects a request without %s with 400 invalid_request',
    async (field) => {
      const fields: Record<string, string> = {
        grant_type: 'token_exchange',
        subject_token: signJwt(claims(), key()),
        subject_token_type: 'jwt',
        scope: 'SkyStatus.GSM',
      };
      delete fields[field];
      const res = await postToken(em, fields);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_request');
    },
  );

  it('refuses a subject token type other than JWT', async () => {
    const res = await exchange(signJwt(claims(), key()), {
      subject_token_type: 'urn:ietf:params:oauth:token-type:saml2',
    });
    expect(res.status).toBe(400);
    expect(['invalid_request', 'invalid_grant']).toContain(res.body.error);
  });

  it('requires client authentication for the exchange', async () => {
    const res = await postToken(
      em,
      {
        grant_type: 'token_exchange',
        subject_token: signJwt(claims(), key()),
        subject_token_type: 'jwt',
        scope: 'SkyStatus.GSM',
      },
      { auth: 'none' },
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});
