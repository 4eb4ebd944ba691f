import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFaultRules } from '../../emulator/fault-rules.js';
import { resolveOptions } from '../../emulator/options.js';
import { call, type Emulator, fixture, postToken, start, token, tokenPair } from './helpers.js';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('Option: refreshRequiresScope', () => {
  let em: Emulator;
  beforeAll(async () => {
    em = await start({ refreshRequiresScope: true });
  });
  afterAll(() => em.close());

  it('refuses a refresh without scope with 400 invalid_request and keeps the token usable', async () => {
    const pair = await tokenPair(em, ['SkyStatus.GSM']);
    const refused = await postToken(em, {
      grant_type: 'refresh_token',
      refresh_token: pair.refresh,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_request' });
    expect(String(refused.body.error_description)).toMatch(/scope/);
    const asked = await postToken(em, {
      grant_type: 'refresh_token',
      refresh_token: pair.refresh,
      scope: 'SkyStatus.GSM',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
  });

  it('takes scope=* on a refresh as the original grant scopes', async () => {
    const pair = await tokenPair(em, ['SkyStatus.GSM', 'SkyStatus.Reporting']);
    const res = await postToken(em, {
      grant_type: 'refresh_token',
      refresh_token: pair.refresh,
      scope: '*',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.scope).toBe(pair.scope);
  });

  it('is off by default: a refresh without scope keeps the original scopes', async () => {
    expect(resolveOptions({}).refreshRequiresScope).toBe(false);
    const lax = await start();
    try {
      const pair = await tokenPair(lax, ['SkyStatus.GSM']);
      const res = await postToken(lax, {
        grant_type: 'refresh_token',
        refresh_token: pair.refresh,
      });
      expect(res.status).toBe(200);
    } finally {
      await lax.close();
    }
  });
});

describe('Option: errorStyle', () => {
  let em: Emulator;
  beforeAll(async () => {
    em = await start({ errorStyle: 'envelope' });
  });
  afterAll(() => em.close());

  it('defaults to problem details', () => {
    expect(resolveOptions({}).errorStyle).toBe('problem');
    expect(() => resolveOptions({ errorStyle: 'xml' as never })).toThrow(/errorStyle/);
  });

  it('renders a 400 as the envelope, error null, with a fresh requestId', async () => {
    const tok = await token(em, ['SkyStatus.GSM']);
    const path = `/api/status/gsm/${fixture(em).gsm.key}`;
    const bodies = await Promise.all(
      [0, 1].map(async () => {
        const res = await call(em, path, { token: tok, query: { batchSize: 0 } });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toMatch(/^application\/json/);
        return (await res.json()) as Record<string, unknown>;
      }),
    );
    const [first, second] = bodies;
    expect(Object.keys(first ?? {})).toEqual([
      'statusCode',
      'requestId',
      'error',
      'error_description',
      'AdditionalInformation',
    ]);
    expect(first).toMatchObject({ statusCode: 400, error: null, AdditionalInformation: {} });
    expect(String(first?.error_description)).toMatch(/batchSize/);
    expect(String(first?.requestId)).toMatch(GUID);
    expect(second?.requestId).not.toBe(first?.requestId);
  });

  it('names the OAuth code in a 401 envelope', async () => {
    const res = await call(em, `/api/status/gsm/${fixture(em).gsm.key}`, { token: 'nope' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ statusCode: 401, error: 'invalid_token' });
  });

  it('leaves token-endpoint errors in the RFC 6749 shape', async () => {
    const res = await postToken(em, { grant_type: 'password', username: 'x', password: 'y' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description']);
  });

  it('sends a 429 fault without Retry-After unless the rule names one', async () => {
    em.setFaults([{ operation: 'status.gsm', kind: 'status', status: 429, count: 1 }]);
    const tok = await token(em, ['SkyStatus.GSM']);
    const path = `/api/status/gsm/${fixture(em).gsm.key}`;
    const res = await call(em, path, { token: tok });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(await res.json()).toMatchObject({ statusCode: 429, error: null });
    em.setFaults([
      { operation: 'status.gsm', kind: 'status', status: 429, count: 1, retryAfterSeconds: 3 },
    ]);
    const named = await call(em, path, { token: tok });
    await named.arrayBuffer();
    expect(named.headers.get('retry-after')).toBe('3');
    em.setFaults([]);
  });
});

describe('Fault: status with an HTML body', () => {
  it('answers a proxy page as text/html, in either error style', async () => {
    for (const errorStyle of ['problem', 'envelope'] as const) {
      const em = await start({
        errorStyle,
        faults: [{ operation: 'health', kind: 'status', status: 503, body: 'html' }],
      });
      try {
        const res = await call(em, '/api/health/version');
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await res.text()).toMatch(/^<!DOCTYPE html>/);
      } finally {
        await em.close();
      }
    }
  });

  it('refuses body on a kind other than status, naming the field', () => {
    expect(() => parseFaultRules([{ kind: 'latency', body: 'html' }])).toThrow(/body/);
    expect(() => parseFaultRules([{ kind: 'status', body: 'pdf' }])).toThrow(/body/);
  });
});

describe('Health operations', () => {
  let em: Emulator;
  beforeAll(async () => {
    em = await start();
  });
  afterAll(() => em.close());

  it('answers ping without a token', async () => {
    const res = await call(em, '/api/health/ping');
    expect(res.status).toBe(200);
    expect(await res.json()).toBe('OK');
  });

  it('answers version with the ServiceInformation of the real service', async () => {
    const res = await call(em, '/api/health/version');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.Name).toBe('Webroot.UnityAPI.APIServer');
    expect(String(body.Version)).toMatch(/^\d+\.\d+/);
    expect(res.headers.get('date')).toBe(new Date(em.now()).toUTCString());
  });

  it('takes GET only', async () => {
    const res = await call(em, '/api/health/ping', { method: 'POST' });
    await res.arrayBuffer();
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
  });
});
