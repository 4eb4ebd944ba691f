import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultRule } from '../../emulator/index.js';
import { SHIPPING } from './customers.js';
import {
  call,
  type Emulator,
  expectProblem,
  fixture,
  passwordFields,
  postToken,
  start,
  token,
} from './helpers.js';

let em: Emulator;
let tok: string;
let sitePath: string;
let smallSitePath: string;
let gsmPath: string;

beforeAll(async () => {
  em = await start({ seed: 11 });
  const fx = fixture(em);
  sitePath = `/api/status/site/${fx.site.key}`;
  smallSitePath = `/api/status/site/${fx.small.key}`;
  gsmPath = `/api/status/gsm/${fx.gsm.key}`;
});
afterAll(() => em.close());
beforeEach(async () => {
  em.setFaults([]);
  tok = await token(em);
});
afterEach(() => em.setFaults([]));

async function statusOf(path = sitePath): Promise<number> {
  const res = await call(em, path, { token: tok, query: { batchSize: 2 } });
  await res.arrayBuffer();
  return res.status;
}

describe('Fault injection: status faults', () => {
  it('answers 503 with Retry-After twice, then 200, for a rule with count 2', async () => {
    em.setFaults([
      {
        operation: 'status.site',
        kind: 'status',
        status: 503,
        probability: 1,
        count: 2,
        retryAfterSeconds: 3,
      },
    ]);
    for (let i = 0; i < 2; i += 1) {
      const res = await call(em, sitePath, { token: tok });
      expect(res.headers.get('retry-after')).toBe('3');
      await expectProblem(res, 503, 'service_unavailable');
    }
    expect(await statusOf()).toBe(200);
    expect(await statusOf()).toBe(200);
  });

  it('answers 429 rate_limited with Retry-After (default 1 s)', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'status', status: 429, count: 1 }]);
    const res = await call(em, sitePath, { token: tok });
    expect(res.headers.get('retry-after')).toBe('1');
    await expectProblem(res, 429, 'rate_limited');
  });

  it('answers 503 with Retry-After 1 by default', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'status', status: 503, count: 1 }]);
    const res = await call(em, sitePath, { token: tok });
    expect(res.headers.get('retry-after')).toBe('1');
    await expectProblem(res, 503, 'service_unavailable');
  });

  it.each([
    [500, 'internal_error'],
    [502, 'bad_gateway'],
    [504, 'gateway_timeout'],
  ] as const)('answers %i with code %s', async (status, code) => {
    em.setFaults([{ operation: 'status.gsm', kind: 'status', status, count: 1 }]);
    await expectProblem(await call(em, gsmPath, { token: tok }), status, code);
  });

  it('touches only the operation named in the rule', async () => {
    em.setFaults([{ operation: 'status.gsm', kind: 'status', status: 503 }]);
    expect(await statusOf(sitePath)).toBe(200);
    expect(await statusOf(gsmPath)).toBe(503);
  });

  it('touches only requests whose path contains pathIncludes, and counts only those', async () => {
    const key = sitePath.split('/').at(-1) ?? '';
    em.setFaults([
      { operation: 'status.site', pathIncludes: key, kind: 'status', status: 500, count: 2 },
    ]);
    expect(await statusOf(smallSitePath)).toBe(200);
    expect([await statusOf(sitePath), await statusOf(sitePath)]).toEqual([500, 500]);
    expect(await statusOf(sitePath)).toBe(200);
  });

  it('refuses an empty pathIncludes', () => {
    expect(() => em.setFaults([{ pathIncludes: '', kind: 'status', status: 500 }])).toThrow(
      /faults\[0\]\.pathIncludes must not be empty/,
    );
  });

  it("applies a '*' rule to the token endpoint too", async () => {
    em.setFaults([{ operation: '*', kind: 'status', status: 503, count: 1 }]);
    const res = await postToken(em, passwordFields(em, ['SkyStatus.GSM']));
    expect(res.status).toBe(503);
    expect((await postToken(em, passwordFields(em, ['SkyStatus.GSM']))).status).toBe(200);
  });

  it('fires on every matching request when count is not given', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'status', status: 502 }]);
    expect([await statusOf(), await statusOf(), await statusOf()]).toEqual([502, 502, 502]);
  });

  it('lets afterRequests requests through before firing', async () => {
    em.setFaults([
      { operation: 'status.site', kind: 'status', status: 500, afterRequests: 2, count: 1 },
    ]);
    expect([await statusOf(), await statusOf(), await statusOf(), await statusOf()]).toEqual([
      200, 200, 500, 200,
    ]);
  });

  it('never fires with probability 0', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'status', status: 500, probability: 0 }]);
    for (let i = 0; i < 10; i += 1) expect(await statusOf()).toBe(200);
  });
});

describe('Fault injection: refused rules', () => {
  it('refuses a status no fault may answer and keeps serving under the rules it had', async () => {
    em.setFaults([{ operation: 'status.gsm', kind: 'status', status: 503 }]);
    expect(() =>
      em.setFaults([{ operation: 'status.site', kind: 'status', status: 404 as 503 }]),
    ).toThrow('faults[0].status must be one of 429, 500, 502, 503, 504 (got 404)');
    const res = await fetch(`${em.adminUrl}/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: [{ kind: 'status', status: Number('abc') }] }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/status must be one of 429/);
    // Still serving, under the rule set before the refused ones.
    expect(await statusOf(sitePath)).toBe(200);
    expect(await statusOf(gsmPath)).toBe(503);
  });
});

describe('Fault injection: transport faults', () => {
  it('adds 100 ms of latency by default', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'latency', count: 1 }]);
    const t0 = performance.now();
    expect(await statusOf()).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(95);
  });

  it('adds latency', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'latency', latencyMs: 300, count: 1 }]);
    const t1 = performance.now();
    expect(await statusOf()).toBe(200);
    const slow = performance.now() - t1;
    expect(slow).toBeGreaterThanOrEqual(290);
  });

  it('resets the connection mid-body so the read fails', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'reset', count: 1 }]);
    const attempt = (async () => {
      const res = await call(em, sitePath, { token: tok });
      return res.text();
    })();
    await expect(attempt).rejects.toThrow();
    expect(await statusOf()).toBe(200);
  });

  it.each(['truncate', 'malformed'] as const)(
    'sends a 200 whose body fails JSON.parse (%s)',
    async (kind) => {
      em.setFaults([{ operation: 'status.site', kind, count: 1 }]);
      const res = await call(em, sitePath, { token: tok });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(() => JSON.parse(text)).toThrow();
      // Truncation must not look like a broken connection: the length matches what is sent.
      if (kind === 'truncate')
        expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    },
  );

  it('revokes every access token, so the request fails with 401 and the token stays dead', async () => {
    em.setFaults([{ operation: 'status.site', kind: 'revoke', count: 1 }]);
    await expectProblem(await call(em, sitePath, { token: tok }), 401, 'invalid_token');
    expect(await statusOf(gsmPath)).toBe(401);
    tok = await token(em);
    expect(await statusOf()).toBe(200);
  });
});

describe('Fault injection: determinism', () => {
  /** One coin-flip rule per operation: the token endpoint, a page, a report, 4.9 and 4.10. */
  const RULES: FaultRule[] = [
    { operation: 'token', kind: 'status', status: 503, probability: 0.5 },
    { operation: 'status.gsm', kind: 'status', status: 503, probability: 0.5 },
    { operation: 'report.gsm', kind: 'status', status: 429, probability: 0.5 },
    { operation: 'blockedUrls', kind: 'status', status: 502, probability: 0.5 },
    { operation: 'cart.customers', kind: 'status', status: 500, probability: 0.5 },
  ];

  /** The statuses each operation answered to the same request sequence, by operation. */
  async function outcomes(seed: number): Promise<Record<string, number[]>> {
    const other = await start({ seed, faults: RULES });
    try {
      const fx = fixture(other);
      const cart = other.info().carts[0]?.vendorOrderCode ?? '';
      const seen: Record<string, number[]> = {};
      const record = (operation: string, status: number) => {
        seen[operation] = [...(seen[operation] ?? []), status];
      };
      const note = async (operation: string, res: Response) => {
        await res.arrayBuffer();
        record(operation, res.status);
      };
      let tok = '';
      for (let i = 0; i < 24; i += 1) {
        const res = await postToken(
          other,
          passwordFields(other, [
            'SkyStatus.GSM',
            'SkyStatus.Reporting',
            'Console.GSM',
            'ECom.Shop',
          ]),
        );
        record('token', res.status);
        // A refused token request leaves the last good token in use (the clock is frozen).
        if (res.status === 200) tok = String(res.body.access_token);
        await note(
          'status.gsm',
          await call(other, `/api/status/gsm/${fx.gsm.key}`, {
            token: tok,
            query: { batchSize: 1 },
          }),
        );
        await note(
          'report.gsm',
          await call(other, `/api/status/reporting/gsm/${fx.gsm.key}`, { token: tok }),
        );
        await note(
          'blockedUrls',
          await call(
            other,
            `/api/console/gsm/${fx.gsm.key}/sites/${fx.site.id}/blockedurls/counts`,
            { token: tok },
          ),
        );
        await note(
          'cart.customers',
          await call(other, `/api/ecom/shop/carts/${cart}/customers`, {
            token: tok,
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ Shipping: SHIPPING }),
          }),
        );
      }
      return seen;
    } finally {
      await other.close();
    }
  }

  it('draws the same outcomes on every route, token endpoint included, for the same seed and rules', async () => {
    const a = await outcomes(5);
    expect(await outcomes(5)).toEqual(a);
    expect(Object.keys(a).sort()).toEqual(RULES.map((r) => r.operation).sort());
    for (const rule of RULES) {
      const statuses = a[rule.operation ?? ''] ?? [];
      expect(statuses, rule.operation).toHaveLength(24);
      // Every route saw the fault and saw it pass (a request that passed may still be a 401
      // while no token has been granted yet).
      expect(statuses, rule.operation).toContain(rule.status);
      expect(
        statuses.some((s) => s !== rule.status),
        rule.operation,
      ).toBe(true);
    }
    expect(a.token).toContain(200);
    expect(a['status.gsm']).toContain(200);
    const b = await outcomes(6);
    for (const rule of RULES) {
      expect(b[rule.operation ?? ''], rule.operation).not.toEqual(a[rule.operation ?? '']);
    }
  });
});

describe('Fault injection: stats', () => {
  it('counts requests by operation, token grants by type and faults injected', async () => {
    em.resetStats();
    await statusOf();
    await statusOf();
    await statusOf(gsmPath);
    await postToken(em, passwordFields(em, ['SkyStatus.GSM']));
    await postToken(em, { ...passwordFields(em, ['SkyStatus.GSM']), password: 'wrong' });
    em.setFaults([{ operation: 'status.site', kind: 'status', status: 503, count: 1 }]);
    await statusOf();
    const s = em.stats();
    expect(s.byOperation['status.site']).toBe(3);
    expect(s.byOperation['status.gsm']).toBe(1);
    expect(s.byOperation.token).toBe(2);
    expect(s.requests).toBeGreaterThanOrEqual(6);
    expect(s.tokenGrants).toEqual({ password: 1, token_exchange: 0, refresh_token: 0, failed: 1 });
    expect(s.faultsInjected).toBe(1);
    em.resetStats();
    expect(em.stats().requests).toBe(0);
  });
});
