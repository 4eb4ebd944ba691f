import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import type { CheckRow } from '../../scripts/doctor/report.js';
import { doctor } from '../../scripts/doctor.js';

// `npm run doctor` against the emulator over HTTP: good settings pass, and each broken setting
// fails with the problem named and no secret printed.
const ROOT = join(import.meta.dirname, '../..');
let emu: Emulator;
let gsm: string;

beforeAll(async () => {
  emu = await startEmulator({ seed: 4, gsmCount: 1, sitesPerGsm: 2, endpointsPerGsm: 20 });
  gsm = emu.info().gsms[0]?.key ?? '';
});
afterAll(() => emu.close());

function env(over: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    SKYWATCH_BASE_URL: emu.baseUrl,
    SKYWATCH_AUTH_URL: emu.authUrl,
    SKYWATCH_CLIENT_ID: 'skywatch-demo',
    SKYWATCH_CLIENT_SECRET: 'demo-client-secret',
    SKYWATCH_USERNAME: 'ops@example.com',
    SKYWATCH_PASSWORD: 'demo-password',
    GSM_KEYS: gsm,
    ...over,
  };
}

const row = (rows: CheckRow[], check: string) => rows.find((r) => r.check === check);
const failed = (rows: CheckRow[]) => rows.filter((r) => r.verdict === 'fail').map((r) => r.check);

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 1;
}

describe('Script: doctor', () => {
  it('passes every check with good settings, and prints no secret', async () => {
    const { ok, rows, text } = await doctor(env());
    expect(failed(rows)).toEqual([]);
    expect(ok).toBe(true);
    expect(row(rows, 'reachable')?.verdict).toBe('ok');
    expect(row(rows, 'version')?.detail).toMatch(/^Webroot\.UnityAPI\.APIServer \d/);
    expect(row(rows, 'clock skew')?.verdict).toBe('ok');
    expect(row(rows, 'grant password')?.verdict).toBe('ok');
    expect(row(rows, 'grant refresh_token')?.verdict).toBe('ok');
    for (const fn of ['report-fetcher', 'blocked-url-alerter', 'infection-alerter']) {
      expect(row(rows, `scopes ${fn}`)?.verdict).toBe('ok');
    }
    for (const op of [
      'gsmAgentStatus',
      'gsmDnspStatus',
      'siteDnspUsageReport',
      'blockedUrlCounts',
    ]) {
      expect(row(rows, `operation ${op}`)?.verdict, op).toBe('ok');
    }
    expect(row(rows, 'operation addCartCustomers')?.verdict).toBe('skip');
    expect(text).toMatch(/All checks passed/);
    expect(text).not.toContain('demo-client-secret');
    expect(text).not.toContain('demo-password');
  });

  it('passes against a service that requires scope on refresh and answers envelopes', async () => {
    const real = await startEmulator({
      seed: 4,
      gsmCount: 1,
      sitesPerGsm: 2,
      endpointsPerGsm: 20,
      refreshRequiresScope: true,
      errorStyle: 'envelope',
    });
    try {
      const { rows } = await doctor(
        env({ SKYWATCH_BASE_URL: real.baseUrl, SKYWATCH_AUTH_URL: real.authUrl }),
      );
      expect(failed(rows)).toEqual([]);
      expect(row(rows, 'grant refresh_token')?.verdict).toBe('ok');
    } finally {
      await real.close();
    }
  });

  it('names a wrong client secret', async () => {
    const { ok, rows, text } = await doctor(
      env({ SKYWATCH_CLIENT_SECRET: 'wrong-secret-value-1' }),
    );
    expect(ok).toBe(false);
    expect(row(rows, 'grant password')).toMatchObject({ verdict: 'fail' });
    expect(row(rows, 'grant password')?.fix).toMatch(/clientId and clientSecret/);
    expect(text).toMatch(/invalid_client/);
    expect(text).not.toContain('wrong-secret-value-1');
  });

  it('names a wrong password without printing it', async () => {
    const { rows, text } = await doctor(env({ SKYWATCH_PASSWORD: 'wrong-password-value' }));
    expect(row(rows, 'grant password')?.fix).toMatch(/username and password/);
    expect(text).not.toContain('wrong-password-value');
  });

  it('names the missing scopes per function', async () => {
    const { ok, rows, text } = await doctor(
      env({ SKYWATCH_USERNAME: 'reports@example.com', SKYWATCH_PASSWORD: 'reports-password' }),
    );
    expect(ok).toBe(false);
    expect(row(rows, 'scopes infection-alerter')).toMatchObject({
      verdict: 'fail',
      detail: 'missing SkyStatus.GSM',
    });
    expect(row(rows, 'scopes blocked-url-alerter')?.detail).toBe('missing Console.GSM');
    expect(row(rows, 'scopes cart-customer-webhook')?.detail).toBe('missing ECom.Shop');
    expect(row(rows, 'operation gsmUsageReport')?.verdict).toBe('ok');
    expect(row(rows, 'operation gsmAgentStatus')?.verdict).toBe('fail');
    expect(text).toMatch(/grant SkyStatus\.GSM to the user/);
  });

  it('names an unreachable URL and stops there', async () => {
    const port = await closedPort();
    const { ok, rows } = await doctor(
      env({ SKYWATCH_BASE_URL: `http://127.0.0.1:${port}/service` }),
    );
    expect(ok).toBe(false);
    expect(row(rows, 'reachable')).toMatchObject({ verdict: 'fail' });
    expect(row(rows, 'reachable')?.fix).toMatch(/SKYWATCH_BASE_URL/);
    expect(row(rows, 'grant password')).toBeUndefined();
  });

  it('names a base URL without the /service prefix', async () => {
    const { rows } = await doctor(
      env({ SKYWATCH_BASE_URL: emu.baseUrl.replace(/\/service$/, '') }),
    );
    expect(row(rows, 'reachable')).toMatchObject({ verdict: 'fail' });
    expect(row(rows, 'reachable')?.fix).toMatch(/\/service/);
  });

  it('names a missing setting', async () => {
    const { ok, rows } = await doctor(env({ SKYWATCH_AUTH_URL: '' }));
    expect(ok).toBe(false);
    expect(rows).toEqual([expect.objectContaining({ check: 'settings', verdict: 'fail' })]);
    expect(rows[0]?.detail).toMatch(/SKYWATCH_AUTH_URL/);
  });

  it('exits 0 on success and 1 on a failure as `npm run doctor`', async () => {
    const run = promisify(execFile);
    const tsx = join(ROOT, 'node_modules/.bin/tsx');
    const good = await run(tsx, ['scripts/doctor.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env() },
    });
    expect(good.stdout).toMatch(/^CHECK\s+RESULT\s+DETAIL/);
    expect(good.stdout).toMatch(/All checks passed/);
    const bad = await run(tsx, ['scripts/doctor.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env({ SKYWATCH_CLIENT_SECRET: 'nope-not-this-one' }) },
    }).then(
      () => ({ code: 0, stdout: '' }),
      (e: { code: number; stdout: string }) => e,
    );
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/FAIL/);
    expect(bad.stdout).not.toContain('nope-not-this-one');
  });
});
