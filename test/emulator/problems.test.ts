import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_VERSION,
  call,
  callUrl,
  type Emulator,
  expectProblem,
  fixture,
  rawGet,
  start,
  token,
  url,
} from './helpers.js';

let em: Emulator;
let gsmPath: string;

beforeAll(async () => {
  em = await start();
  gsmPath = `/api/status/gsm/${fixture(em).gsm.key}`;
});
afterAll(() => em.close());

describe('User-Agent', () => {
  it('rejects a request without User-Agent with 400 user_agent_required', async () => {
    const tok = await token(em, ['SkyStatus.GSM']);
    const res = await rawGet(url(em, gsmPath), { Authorization: `Bearer ${tok}` });
    expect(res.status).toBe(400);
    expect(String(res.headers['content-type'])).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: 'user_agent_required' });
  });

  it('refuses a token request without User-Agent with 400 in the RFC 6749 error shape', async () => {
    const res = await new Promise<{ status: number; type: string; cache: string; body: string }>(
      (resolve, reject) => {
        const body =
          'grant_type=password&username=ops%40example.com&password=demo-password&scope=SkyStatus.GSM';
        const req = httpRequest(
          em.tokenUrl,
          {
            method: 'POST',
            headers: {
              'Content-Type': 'application/x-www-form-urlencoded',
              Authorization: `Basic ${Buffer.from('skywatch-demo:demo-client-secret').toString('base64')}`,
            },
          },
          (r) => {
            const chunks: Buffer[] = [];
            r.on('data', (c: Buffer) => chunks.push(c));
            r.on('end', () =>
              resolve({
                status: r.statusCode ?? 0,
                type: String(r.headers['content-type']),
                cache: String(r.headers['cache-control']),
                body: Buffer.concat(chunks).toString('utf8'),
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      },
    );
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/json/);
    expect(res.cache).toBe('no-store');
    const body = JSON.parse(res.body) as Record<string, unknown>;
    expect(body.error).toBe('invalid_request');
    expect(String(body.error_description)).toMatch(/User-Agent/);
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  });

  it('accepts a request without User-Agent when strict mode is off', async () => {
    const lax = await start({ strictUserAgent: false });
    try {
      const tok = await token(lax, ['SkyStatus.GSM']);
      const path = `/api/status/gsm/${lax.info().gsms[0]?.key ?? ''}`;
      const res = await rawGet(url(lax, path, { batchSize: 1 }), {
        Authorization: `Bearer ${tok}`,
      });
      expect(res.status).toBe(200);
    } finally {
      await lax.close();
    }
  });
});

describe('Problem details and headers', () => {
  it('answers 400 with a problem body naming the parameter, and the api-version header', async () => {
    const tok = await token(em, ['SkyStatus.GSM']);
    const res = await call(em, gsmPath, { token: tok, query: { batchSize: 0 } });
    expect(res.headers.get('api-version')).toBe(API_VERSION);
    const body = await expectProblem(res, 400, 'invalid_parameter', 'batchSize');
    expect(body.detail).toContain('batchSize');
    expect(body.type).toMatch(/^https?:\/\//);
  });

  it('answers an unknown path with 404 not_found', async () => {
    const tok = await token(em);
    const res = await call(em, '/api/status/nowhere', { token: tok });
    expect(res.headers.get('api-version')).toBe(API_VERSION);
    await expectProblem(res, 404, 'not_found');
  });

  it('answers a wrong method with 405 method_not_allowed', async () => {
    const tok = await token(em);
    const res = await call(em, gsmPath, { token: tok, method: 'DELETE' });
    await expectProblem(res, 405, 'method_not_allowed');
  });

  it('names the allowed method in an Allow header on 405 (RFC 9110 §15.5.6)', async () => {
    const tok = await token(em);
    const get = await call(em, gsmPath, { token: tok, method: 'DELETE' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toMatch(/\bGET\b/);
    const post = await call(em, '/api/ecom/shop/carts/any/customers', { token: tok });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toMatch(/\bPOST\b/);
  });

  it.each([
    ['/service/api/status/nowhere'],
    ['/service/api/status/gsm'],
    ['/service'],
    ['/identity/auth/authorize'],
    ['/'],
  ])('answers the unknown path %s with 404 not_found before asking for a token', async (path) => {
    const res = await callUrl(new URL(path, em.baseUrl).toString());
    await expectProblem(res, 404, 'not_found');
  });

  it('gives every error a distinct traceId', async () => {
    const a = await expectProblem(await call(em, gsmPath), 401, 'invalid_token');
    const b = await expectProblem(await call(em, gsmPath), 401, 'invalid_token');
    expect(a.traceId).not.toBe(b.traceId);
  });
});
