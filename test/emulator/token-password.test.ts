import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_VERSION,
  CATALOGUE,
  call,
  type Emulator,
  OPS,
  passwordFields,
  postToken,
  REPORTS,
  scopeName,
  start,
  token,
  UA,
} from './helpers.js';

const WEIRD = { clientId: 'partner:app 1', clientSecret: 'p@ss:word+&%é' };

let em: Emulator;

beforeAll(async () => {
  em = await start({
    clients: [{ clientId: 'skywatch-demo', clientSecret: 'demo-client-secret' }, WEIRD],
  });
});
afterAll(() => em.close());

function expectTokenError(
  res: { status: number; headers: Headers; body: Record<string, unknown> },
  status: number,
  error: string,
) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toBe(error);
  expect(typeof res.body.error_description).toBe('string');
  expect(res.headers.get('cache-control')).toContain('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}

describe('Token endpoint: password grant', () => {
  it('issues a bearer token with Basic client authentication', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM', 'SkyStatus.Reporting']));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.token_type).toBe('bearer');
    expect(res.body.expires_in).toBe(300);
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(res.body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    expect(res.body.refresh_token).not.toBe(res.body.access_token);
    expect(res.body.scope).toBe('["SkyStatus.GSM","SkyStatus.Reporting"]');
  });

  it('answers with Cache-Control no-store, Pragma no-cache and the api-version header', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']));
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.headers.get('pragma')).toBe('no-cache');
    expect(res.headers.get('api-version')).toBe(API_VERSION);
  });

  it('accepts client_id and client_secret in the body instead of Basic', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']), { auth: 'body' });
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('["SkyStatus.GSM"]');
  });

  it('form-urlencodes Basic credentials before Base64 (RFC 6749 §2.3.1)', async () => {
    const basic = await postToken(em, passwordFields(em, ['SkyStatus.GSM']), { client: WEIRD });
    expect(basic.status, JSON.stringify(basic.body)).toBe(200);
    const body = await postToken(em, passwordFields(em, ['SkyStatus.GSM']), {
      client: WEIRD,
      auth: 'body',
    });
    expect(body.status).toBe(200);
  });

  it('rejects Basic and body credentials at once with 400 invalid_request', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']), { auth: 'both' });
    expectTokenError(res, 400, 'invalid_request');
  });

  it.each([
    ['a wrong secret', { clientId: 'skywatch-demo', clientSecret: 'nope' }, 'basic'],
    ['an unknown client', { clientId: 'who', clientSecret: 'demo-client-secret' }, 'basic'],
    ['a wrong secret in the body', { clientId: 'skywatch-demo', clientSecret: 'nope' }, 'body'],
  ] as const)(
    'rejects %s with 401 invalid_client and WWW-Authenticate Basic',
    async (_, client, auth) => {
      const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']), { client, auth });
      expectTokenError(res, 401, 'invalid_client');
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="skywatch"/);
    },
  );

  it('rejects a request without client credentials with 401 invalid_client', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']), { auth: 'none' });
    expectTokenError(res, 401, 'invalid_client');
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="skywatch"/);
  });

  it('rejects a wrong password with 400 invalid_grant', async () => {
    const fields = { ...passwordFields(em, ['SkyStatus.GSM']), password: 'wrong' };
    expectTokenError(await postToken(em, fields), 400, 'invalid_grant');
  });

  it('rejects an unknown user with 400 invalid_grant', async () => {
    const fields = { ...passwordFields(em, ['SkyStatus.GSM']), username: 'nobody@example.com' };
    expectTokenError(await postToken(em, fields), 400, 'invalid_grant');
  });

  it.each(['username', 'password', 'scope', 'grant_type'])(
    'rejects a request without %s with 400 invalid_request',
    async (field) => {
      const fields = passwordFields(em, ['SkyStatus.GSM']);
      delete fields[field];
      expectTokenError(await postToken(em, fields), 400, 'invalid_request');
    },
  );

  it('rejects a repeated parameter with 400 invalid_request (RFC 6749 §5.2)', async () => {
    const form = new URLSearchParams(passwordFields(em, ['SkyStatus.GSM']));
    form.append('scope', 'SkyStatus.Reporting');
    const res = await postToken(em, {}, { rawBody: form.toString() });
    expectTokenError(res, 400, 'invalid_request');
  });

  it('rejects an unknown grant_type with 400 unsupported_grant_type', async () => {
    const fields = { ...passwordFields(em, ['SkyStatus.GSM']), grant_type: 'client_credentials' };
    expectTokenError(await postToken(em, fields), 400, 'unsupported_grant_type');
  });

  it('rejects an unknown scope name with 400 invalid_scope', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM', 'SkyStatus.Nope']));
    expectTokenError(res, 400, 'invalid_scope');
  });

  it('rejects a request of which no scope can be granted with 400 invalid_scope', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM'], REPORTS));
    expectTokenError(res, 400, 'invalid_scope');
  });

  it('drops scopes the user may not have and says what was granted', async () => {
    const fields = passwordFields(em, ['SkyStatus.GSM', 'SkyStatus.Reporting'], REPORTS);
    const res = await postToken(em, fields);
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('["SkyStatus.Reporting"]');
    const gsmKey = em.info().gsms[0]?.key ?? '';
    const denied = await call(em, `/api/status/gsm/${gsmKey}`, {
      token: String(res.body.access_token),
    });
    expect(denied.status).toBe(403);
  });

  it('matches scope names case-insensitively and grants them in canonical case', async () => {
    const res = await postToken(em, passwordFields(em, ['ecom.orders', 'ECOM.LICENSES']));
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('["ECom.Orders","ECom.Licenses"]');
  });

  it('grants the base URL scope by its URL', async () => {
    const res = await postToken(em, passwordFields(em, ['{base_url}']));
    expect(res.status).toBe(200);
    expect(JSON.parse(String(res.body.scope))).toEqual([em.baseUrl]);
  });

  it('expands * to every scope the user may have', async () => {
    const ops = await postToken(em, passwordFields(em, ['*']));
    expect(ops.status).toBe(200);
    const granted = JSON.parse(String(ops.body.scope)) as string[];
    expect([...granted].sort()).toEqual(CATALOGUE.map((s) => scopeName(em, s)).sort());
    const reports = await postToken(em, passwordFields(em, ['*'], REPORTS));
    expect(reports.body.scope).toBe('["SkyStatus.Reporting"]');
  });

  it('rejects a JSON body with 400 invalid_request', async () => {
    const fields = passwordFields(em, ['SkyStatus.GSM']);
    const res = await postToken(
      em,
      {},
      {
        contentType: 'application/json',
        rawBody: JSON.stringify(fields),
      },
    );
    expectTokenError(res, 400, 'invalid_request');
  });

  it('accepts a form content type with a charset parameter', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']), {
      contentType: 'application/x-www-form-urlencoded; charset=UTF-8',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('grants a scope asked for twice once', async () => {
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM', 'skystatus.gsm']));
    expect(res.status).toBe(200);
    expect(res.body.scope).toBe('["SkyStatus.GSM"]');
  });

  it('matches the base URL scope case-insensitively and grants it as the base URL', async () => {
    const res = await postToken(em, passwordFields(em, [em.baseUrl.toUpperCase()]));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(JSON.parse(String(res.body.scope))).toEqual([em.baseUrl]);
  });

  it('rejects a Basic header that is not Base64 of id:secret with 401 invalid_client', async () => {
    const res = await fetch(em.tokenUrl, {
      method: 'POST',
      headers: {
        'User-Agent': UA,
        Authorization: `Basic ${Buffer.from('no-colon-here').toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(passwordFields(em, ['SkyStatus.GSM'])).toString(),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('issues distinct opaque tokens for each grant', async () => {
    const a = await token(em, ['SkyStatus.GSM'], OPS);
    const b = await token(em, ['SkyStatus.GSM'], OPS);
    expect(a).not.toBe(b);
    expect(a.split('.')).toHaveLength(1);
  });

  it('does not accept an access token as client authentication', async () => {
    const access = await token(em, ['SkyStatus.GSM']);
    const res = await fetch(em.tokenUrl, {
      method: 'POST',
      headers: {
        'User-Agent': UA,
        Authorization: `Bearer ${access}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(passwordFields(em, ['SkyStatus.GSM'])).toString(),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_client');
  });
});

describe('Token endpoint: scope rendering option', () => {
  it('renders the granted scope without quotes when scopeStyle is bare', async () => {
    const bare = await start({ scopeStyle: 'bare' });
    try {
      const res = await postToken(
        bare,
        passwordFields(bare, ['SkyStatus.GSM', 'SkyStatus.Reporting']),
      );
      expect(res.body.scope).toBe('[SkyStatus.GSM, SkyStatus.Reporting]');
    } finally {
      await bare.close();
    }
  });
});

describe('Token endpoint: request size', () => {
  it('answers a body over 64 KiB with 413 in the RFC 6749 error shape', async () => {
    const fields = { ...passwordFields(em, ['SkyStatus.GSM']), padding: 'x'.repeat(65 * 1024) };
    const res = await postToken(em, fields);
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('invalid_request');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('Token endpoint: its own refusals and injected faults', () => {
  it('answers GET with 405, Allow: POST and an RFC 6749 error body', async () => {
    const res = await fetch(em.tokenUrl, { headers: { 'User-Agent': UA } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      error: 'invalid_request',
      error_description: 'the token endpoint takes POST only',
    });
  });

  it('answers an injected fault with the problem body of the gateway in front of it', async () => {
    em.setFaults([{ operation: 'token', kind: 'status', status: 503, count: 1 }]);
    try {
      const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']));
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 503, code: 'service_unavailable' });
      expect(res.headers.get('retry-after')).toBe('1');
    } finally {
      em.setFaults([]);
    }
  });
});
