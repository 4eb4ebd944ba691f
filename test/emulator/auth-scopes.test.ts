import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_VERSION,
  CATALOGUE,
  type CallOptions,
  call,
  type Emulator,
  expectProblem,
  fixture,
  scopeName,
  start,
  token,
  UA,
} from './helpers.js';

let em: Emulator;

interface Operation {
  name: string;
  scope: string;
  path: string;
  options: CallOptions;
}

let operations: Operation[] = [];

function shipping() {
  return {
    FirstName: 'Ada',
    LastName: 'Lovelace',
    Address1: '1 Analytical Way',
    Address2: null,
    City: 'London',
    PostalCode: 'N1 9GU',
    State: '',
    Country: 'GB',
    CustomerEmail: 'ada@example.com',
    CompanyName: 'Engines Ltd',
    CompanyTypeId: 1,
    ExternalCustomerKey: 'ext-1',
    OptIn: false,
  };
}

beforeAll(async () => {
  em = await start();
  const { gsm, site, info } = fixture(em);
  const cart = info.carts[0]?.vendorOrderCode ?? 'missing';
  const post: CallOptions = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ Shipping: shipping() }),
  };
  const reports = `/api/status/reporting/gsm/${gsm.key}`;
  operations = [
    { name: '4.1', scope: '{base_url}', path: `/api/status/site/${site.key}`, options: {} },
    { name: '4.2', scope: '{base_url}', path: `/api/status/site/dnsp/${site.key}`, options: {} },
    { name: '4.3', scope: 'SkyStatus.GSM', path: `/api/status/gsm/${gsm.key}`, options: {} },
    { name: '4.4', scope: 'SkyStatus.GSM', path: `/api/status/gsm/dnsp/${gsm.key}`, options: {} },
    { name: '4.5', scope: 'SkyStatus.Reporting', path: reports, options: {} },
    { name: '4.6', scope: 'SkyStatus.Reporting', path: `${reports}/sites`, options: {} },
    {
      name: '4.7',
      scope: 'SkyStatus.Reporting',
      path: `${reports}/sites/${site.key}`,
      options: {},
    },
    {
      name: '4.8',
      scope: 'SkyStatus.Reporting',
      path: `${reports}/sites/${site.key}/dnsp`,
      options: {},
    },
    {
      name: '4.9',
      scope: 'Console.GSM',
      path: `/api/console/gsm/${gsm.key}/sites/${site.id}/blockedurls/counts`,
      options: {},
    },
    {
      name: '4.10',
      scope: 'ECom.Shop',
      path: `/api/ecom/shop/carts/${cart}/customers`,
      options: post,
    },
  ];
});
afterAll(() => em.close());

function op(name: string): Operation {
  const found = operations.find((o) => o.name === name);
  if (!found) throw new Error(`no operation ${name}`);
  return found;
}

const NAMES = ['4.1', '4.2', '4.3', '4.4', '4.5', '4.6', '4.7', '4.8', '4.9', '4.10'];

describe('Bearer authentication', () => {
  it.each(NAMES)(
    'answers %s without a token with 401 and a bare Bearer challenge',
    async (name) => {
      const o = op(name);
      const res = await call(em, o.path, o.options);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="skywatch"');
      await expectProblem(res, 401, 'invalid_token');
    },
  );

  it('answers a garbage token with 401 invalid_token and an error description', async () => {
    const o = op('4.3');
    const res = await call(em, o.path, { token: 'garbage-token' });
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toMatch(/^Bearer realm="skywatch", error="invalid_token"/);
    expect(challenge).toMatch(/error_description="[^"]+"/);
    await expectProblem(res, 401, 'invalid_token');
  });

  it('does not accept Basic credentials on an operation', async () => {
    const o = op('4.3');
    const res = await call(em, o.path, {
      headers: {
        Authorization: `Basic ${Buffer.from('skywatch-demo:demo-client-secret').toString('base64')}`,
      },
    });
    expect(res.status).toBe(401);
  });

  it('does not accept a refresh token as an access token', async () => {
    const res = await fetch(em.tokenUrl, {
      method: 'POST',
      headers: {
        'User-Agent': UA,
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: `Basic ${Buffer.from('skywatch-demo:demo-client-secret').toString('base64')}`,
      },
      body: 'grant_type=password&username=ops%40example.com&password=demo-password&scope=SkyStatus.GSM',
    });
    const { refresh_token } = (await res.json()) as { refresh_token: string };
    const denied = await call(em, op('4.3').path, { token: refresh_token });
    await expectProblem(denied, 401, 'invalid_token');
  });
});

describe('Order of checks', () => {
  it('authenticates before it validates parameters', async () => {
    const res = await call(em, '/api/status/gsm/not-a-keycode');
    await expectProblem(res, 401, 'invalid_token');
  });

  it('checks the scope before it validates parameters', async () => {
    const tok = await token(em, ['SkyStatus.Reporting']);
    const res = await call(em, '/api/status/gsm/not-a-keycode', {
      token: tok,
      query: { batchSize: 0 },
    });
    await expectProblem(res, 403, 'insufficient_scope');
  });

  it('accepts the Bearer scheme name in any case (RFC 7235)', async () => {
    const tok = await token(em, ['SkyStatus.GSM']);
    const res = await call(em, op('4.3').path, {
      headers: { Authorization: `bearer ${tok}` },
      query: { batchSize: 1 },
    });
    await res.arrayBuffer();
    expect(res.status).toBe(200);
  });
});

describe('Scopes per operation', () => {
  it.each(NAMES)('refuses %s without its scope with 403 naming the scope', async (name) => {
    const o = op(name);
    const needed = scopeName(em, o.scope);
    const others = CATALOGUE.filter((s) => s !== o.scope);
    const tok = await token(em, others);
    const res = await call(em, o.path, { ...o.options, token: tok });
    const challenge = res.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('Bearer realm="skywatch"');
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain(`scope="${needed}"`);
    await expectProblem(res, 403, 'insufficient_scope');
  });

  it.each(NAMES)('serves %s with only its scope', async (name) => {
    const o = op(name);
    const tok = await token(em, [o.scope]);
    const res = await call(em, o.path, { ...o.options, token: tok });
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('api-version')).toBe(API_VERSION);
  });
});
