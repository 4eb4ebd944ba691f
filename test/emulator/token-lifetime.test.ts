import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Emulator, expectProblem, postToken, start, tokenPair } from './helpers.js';

const DAY = 86_400;
let em: Emulator;
let gsmPath: string;

beforeAll(async () => {
  em = await start();
  gsmPath = `/api/status/gsm/${em.info().gsms[0]?.key ?? ''}`;
});
afterAll(() => em.close());

function refresh(refreshToken: string) {
  return postToken(em, { grant_type: 'refresh_token', refresh_token: refreshToken });
}

// Tests in this file move the shared clock, so they run in order and each gets fresh tokens.
describe('Token lifetimes', () => {
  it('keeps an access token valid for 300 seconds and answers 401 invalid_token after', async () => {
    const { access } = await tokenPair(em, ['SkyStatus.GSM']);
    em.advanceClock(299);
    const early = await call(em, gsmPath, { token: access, query: { batchSize: 1 } });
    await early.arrayBuffer();
    expect(early.status).toBe(200);
    em.advanceClock(2);
    const late = await call(em, gsmPath, { token: access, query: { batchSize: 1 } });
    expect(late.headers.get('www-authenticate') ?? '').toMatch(
      /^Bearer realm="skywatch", error="invalid_token"/,
    );
    await expectProblem(late, 401, 'invalid_token');
  });

  it('refreshes within 14 days and slides the refresh lifetime on rotation', async () => {
    const { refresh: r0 } = await tokenPair(em, ['SkyStatus.GSM']);
    em.advanceClock(13 * DAY);
    const r1 = await refresh(r0);
    expect(r1.status, JSON.stringify(r1.body)).toBe(200);
    em.advanceClock(13 * DAY);
    const r2 = await refresh(String(r1.body.refresh_token));
    expect(r2.status, JSON.stringify(r2.body)).toBe(200);
  });

  it('expires a refresh token after 14 days with 400 invalid_grant', async () => {
    const { refresh: r0 } = await tokenPair(em, ['SkyStatus.GSM']);
    em.advanceClock(14 * DAY + 1);
    const res = await refresh(r0);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  it('honours a configured access token lifetime', async () => {
    const short = await start({ accessTokenTtlSeconds: 60 });
    try {
      const res = await postToken(short, {
        grant_type: 'password',
        username: 'ops@example.com',
        password: 'demo-password',
        scope: 'SkyStatus.GSM',
      });
      expect(res.body.expires_in).toBe(60);
      short.advanceClock(61);
      const path = `/api/status/gsm/${short.info().gsms[0]?.key ?? ''}`;
      const late = await call(short, path, { token: String(res.body.access_token) });
      await expectProblem(late, 401, 'invalid_token');
    } finally {
      await short.close();
    }
  });
});
