import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Emulator, postToken, start, tokenPair } from './helpers.js';

let em: Emulator;
let gsmPath: string;
let reportPath: string;

beforeAll(async () => {
  em = await start();
  const gsmKey = em.info().gsms[0]?.key ?? '';
  gsmPath = `/api/status/gsm/${gsmKey}`;
  reportPath = `/api/status/reporting/gsm/${gsmKey}`;
});
afterAll(() => em.close());

function refresh(refreshToken: string, scope?: string) {
  const fields: Record<string, string> = {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
  };
  if (scope !== undefined) fields.scope = scope;
  return postToken(em, fields);
}

async function statusOf(path: string, tok: string): Promise<number> {
  // Reports take no batchSize (an unknown parameter is a 400 of its own).
  const query = path === reportPath ? {} : { batchSize: 1 };
  const res = await call(em, path, { token: tok, query });
  await res.arrayBuffer();
  return res.status;
}

describe('Token endpoint: refresh grant', () => {
  it('returns a new access and refresh token with the original scopes', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM', 'SkyStatus.Reporting']);
    const res = await refresh(first.refresh);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.access_token).not.toBe(first.access);
    expect(res.body.refresh_token).not.toBe(first.refresh);
    expect(res.body.scope).toBe(first.scope);
    expect(res.body.expires_in).toBe(300);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(await statusOf(gsmPath, String(res.body.access_token))).toBe(200);
  });

  it('kills a refresh token once it has been used', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM']);
    expect((await refresh(first.refresh)).status).toBe(200);
    const again = await refresh(first.refresh);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
  });

  it('revokes the whole family when a used refresh token is presented again', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM']);
    const second = await refresh(first.refresh);
    expect(second.status).toBe(200);
    const newAccess = String(second.body.access_token);
    const newRefresh = String(second.body.refresh_token);
    expect(await statusOf(gsmPath, newAccess)).toBe(200);

    expect((await refresh(first.refresh)).body.error).toBe('invalid_grant');

    const third = await refresh(newRefresh);
    expect(third.status).toBe(400);
    expect(third.body.error).toBe('invalid_grant');
    expect(await statusOf(gsmPath, newAccess)).toBe(401);
    expect(await statusOf(gsmPath, first.access)).toBe(401);
  });

  it('leaves other families alone when one family is revoked', async () => {
    const bystander = await tokenPair(em, ['SkyStatus.GSM']);
    const victim = await tokenPair(em, ['SkyStatus.GSM']);
    await refresh(victim.refresh);
    await refresh(victim.refresh);
    expect(await statusOf(gsmPath, bystander.access)).toBe(200);
    expect((await refresh(bystander.refresh)).status).toBe(200);
  });

  it('narrows the scopes when asked for a subset', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM', 'SkyStatus.Reporting']);
    const res = await refresh(first.refresh, 'SkyStatus.Reporting');
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('["SkyStatus.Reporting"]');
    expect(await statusOf(gsmPath, String(res.body.access_token))).toBe(403);
    expect(await statusOf(reportPath, String(res.body.access_token))).toBe(200);
  });

  it('refuses to widen the scopes with 400 invalid_scope', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM']);
    const res = await refresh(first.refresh, 'SkyStatus.GSM SkyStatus.Reporting');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scope');
  });

  it('keeps the refresh token usable after a refresh refused with invalid_scope', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM']);
    const refused = await refresh(first.refresh, 'SkyStatus.Reporting');
    expect(refused.body.error).toBe('invalid_scope');
    const retry = await refresh(first.refresh);
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    expect(await statusOf(gsmPath, first.access)).toBe(200);
  });

  it('rejects an unknown refresh token with 400 invalid_grant', async () => {
    const res = await refresh('AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('rejects an access token presented as a refresh token with 400 invalid_grant', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM']);
    const res = await refresh(first.access);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('rejects a request without refresh_token with 400 invalid_request', async () => {
    const res = await postToken(em, { grant_type: 'refresh_token' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('requires client authentication', async () => {
    const first = await tokenPair(em, ['SkyStatus.GSM']);
    const res = await postToken(
      em,
      { grant_type: 'refresh_token', refresh_token: first.refresh },
      { auth: 'none' },
    );
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});

describe('Token endpoint: refresh without reuse detection', () => {
  it('rejects a reused refresh token but keeps the family alive when reuseDetection is off', async () => {
    const lenient = await start({ reuseDetection: false });
    try {
      const first = await tokenPair(lenient, ['SkyStatus.GSM']);
      const fields = (t: string) => ({ grant_type: 'refresh_token', refresh_token: t });
      const second = await postToken(lenient, fields(first.refresh));
      expect(second.status).toBe(200);
      const reuse = await postToken(lenient, fields(first.refresh));
      expect(reuse.body.error).toBe('invalid_grant');
      const third = await postToken(lenient, fields(String(second.body.refresh_token)));
      expect(third.status).toBe(200);
    } finally {
      await lenient.close();
    }
  });
});

describe('Token endpoint: refresh tokens are bound to their client', () => {
  it('refuses a refresh token presented by another client with 400 invalid_grant (RFC 6749 §6)', async () => {
    const other = { clientId: 'second-app', clientSecret: 'second-secret' };
    const two = await start({
      clients: [{ clientId: 'skywatch-demo', clientSecret: 'demo-client-secret' }, other],
    });
    try {
      const pair = await tokenPair(two, ['SkyStatus.GSM']);
      const res = await postToken(
        two,
        { grant_type: 'refresh_token', refresh_token: pair.refresh },
        { client: other },
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_grant');
    } finally {
      await two.close();
    }
  });
});
