import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../emulator/index.js';
import {
  call,
  DAY_MS,
  day,
  type Emulator,
  expectProblem,
  getOk,
  midnight,
  postToken,
  signJwt,
  start,
  token,
  tokenPair,
} from './helpers.js';

const IDP = {
  issuer: 'https://login.example.org',
  audience: 'conformance',
  key: 'another-signing-key',
};
const AUDITOR = {
  username: 'auditor@example.org',
  password: 'audit-pass',
  scopes: ['Console.GSM'],
};
const OPS = {
  username: 'ops@example.com',
  password: 'demo-password',
  scopes: ['{base_url}', 'SkyStatus.GSM', 'SkyStatus.Reporting', 'Console.GSM'],
};

let em: Emulator;

beforeAll(async () => {
  em = await start({
    seed: 3,
    gsmCount: 3,
    sitesPerGsm: 2,
    endpointsPerGsm: 10,
    cartCount: 3,
    blockedUrlHistoryDays: 30,
    reportRetentionDays: 10,
    refreshTokenTtlSeconds: 600,
    idp: IDP,
    users: [OPS, AUDITOR],
  });
});
afterAll(() => em.close());

describe('Emulator options', () => {
  it('shapes the dataset as asked', () => {
    const info = em.info();
    expect(info.gsms).toHaveLength(3);
    for (const g of info.gsms) {
      expect(g.sites).toHaveLength(2);
      expect(g.endpointCount).toBe(10);
    }
    expect(info.carts).toHaveLength(3);
    expect(info.idp).toEqual(IDP);
    expect(info.users.map((u) => u.username)).toEqual([OPS.username, AUDITOR.username]);
  });

  it('limits blocked-URL history to the configured days', async () => {
    const tok = await token(em, ['Console.GSM'], AUDITOR.username);
    const { gsms } = em.info();
    const path = `/api/console/gsm/${gsms[0]?.key}/sites/${gsms[0]?.sites[0]?.id}/blockedurls/counts`;
    const now = em.now().getTime();
    const iso = (ms: number) => new Date(ms).toISOString();
    const ok = await call(em, path, {
      token: tok,
      query: { startDate: iso(now - 29 * DAY_MS), endDate: iso(now - 20 * DAY_MS) },
    });
    await ok.arrayBuffer();
    expect(ok.status).toBe(200);
    const old = await call(em, path, {
      token: tok,
      query: { startDate: iso(now - 31 * DAY_MS), endDate: iso(now - 25 * DAY_MS) },
    });
    await expectProblem(old, 400, 'invalid_parameter', 'startDate');
  });

  it('keeps reports for the configured days', async () => {
    const tok = await token(em, ['SkyStatus.Reporting']);
    const path = `/api/status/reporting/gsm/${em.info().gsms[0]?.key}`;
    const today = midnight(em.now().getTime());
    await getOk(em, path, { token: tok, query: { effectiveDate: day(today - 8 * DAY_MS) } });
    const gone = await call(em, path, {
      token: tok,
      query: { effectiveDate: day(today - 12 * DAY_MS) },
    });
    await expectProblem(gone, 404, 'not_found');
  });

  it('grants configured users only their scopes', async () => {
    const res = await postToken(em, {
      grant_type: 'password',
      username: AUDITOR.username,
      password: AUDITOR.password,
      scope: 'Console.GSM SkyStatus.GSM',
    });
    expect(res.body.scope).toBe('["Console.GSM"]');
    const gone = await postToken(em, {
      grant_type: 'password',
      username: 'reports@example.com',
      password: 'reports-password',
      scope: 'SkyStatus.Reporting',
    });
    expect(gone.body.error).toBe('invalid_grant');
  });

  it('verifies subject tokens against the configured identity provider', async () => {
    const now = Math.floor(em.now().getTime() / 1000);
    const claims = { iss: IDP.issuer, aud: IDP.audience, sub: AUDITOR.username, exp: now + 60 };
    const exchange = (jwt: string) =>
      postToken(em, {
        grant_type: 'token_exchange',
        subject_token: jwt,
        subject_token_type: 'jwt',
        scope: 'Console.GSM',
      });
    expect((await exchange(signJwt(claims, IDP.key))).status).toBe(200);
    const demo = await exchange(
      signJwt(
        { ...claims, iss: 'https://idp.example.com', aud: 'skywatch' },
        'demo-idp-signing-key',
      ),
    );
    expect(demo.body.error).toBe('invalid_grant');
  });

  it('expires refresh tokens after the configured lifetime', async () => {
    const pair = await tokenPair(em, ['SkyStatus.GSM']);
    em.advanceClock(601);
    const res = await postToken(em, { grant_type: 'refresh_token', refresh_token: pair.refresh });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });
});

describe('Emulator options: validation', () => {
  it.each([
    [
      { faults: [{ kind: 'status', status: 404 }] },
      'faults[0].status must be one of 429, 500, 502, 503, 504 (got 404)',
    ],
    [
      { faults: [{ kind: 'status', status: Number.NaN }] },
      'faults[0].status must be one of 429, 500, 502, 503, 504',
    ],
    [
      { faults: [{ kind: 'latency' }, { kind: 'latency', latencyMs: 1.5 }] },
      'faults[1].latencyMs must be an integer',
    ],
    [{ faults: [{ kind: 'reset', wait: 1 }] }, 'faults[0].wait is not a fault rule field'],
    [{ seed: 1.5 }, 'emulator option seed must be an integer'],
    [{ port: 70_000 }, 'emulator option port must be an integer from 0 to 65535 (got 70000)'],
  ])('refuses %j before listening, naming the option', async (options, message) => {
    await expect(start(options as EmulatorOptions)).rejects.toThrow(message);
  });
});
