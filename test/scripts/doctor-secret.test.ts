import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Emulator, startEmulator } from '../../emulator/index.js';
import { doctor } from '../../scripts/doctor.js';
import { demoCredentials } from '../../scripts/local/function-env.js';
import { type LocalAws, startLocalAws } from '../support/local-aws.js';

// The doctor reading the credentials secret the functions read, from moto's Secrets Manager
// through the unmodified AWS SDK.
let emu: Emulator;
let aws: LocalAws;

beforeAll(async () => {
  [emu, aws] = await Promise.all([
    startEmulator({ gsmCount: 1, sitesPerGsm: 2, endpointsPerGsm: 20 }),
    startLocalAws(),
  ]);
});
afterAll(async () => {
  await aws?.moto.stop();
  await emu?.close();
});

function env(secretId: string): NodeJS.ProcessEnv {
  return {
    SKYWATCH_BASE_URL: emu.baseUrl,
    SKYWATCH_AUTH_URL: emu.authUrl,
    CREDENTIALS_SECRET_ARN: secretId,
    GSM_KEYS: emu.info().gsms[0]?.key ?? '',
  };
}

describe('Script: doctor with the credentials secret', () => {
  it('reads the secret by ARN and passes, naming the secret and never its values', async () => {
    const res = await aws.provision(demoCredentials('webhook-signing-secret-of-test'));
    const { ok, rows, text } = await doctor(env(res.credentialsSecretArn), aws.clients.secrets);
    expect(rows.filter((r) => r.verdict === 'fail')).toEqual([]);
    expect(ok).toBe(true);
    expect(rows[0]?.detail).toContain(`credentials from secret ${res.credentialsSecretArn}`);
    expect(text).not.toContain('demo-client-secret');
    expect(text).not.toContain('webhook-signing-secret-of-test');
  });

  it('names a wrong secret in the secret', async () => {
    const res = await aws.provision({
      ...demoCredentials('webhook-signing-secret-of-test'),
      clientSecret: 'a-stale-client-secret',
    });
    const { ok, rows, text } = await doctor(env(res.credentialsSecretArn), aws.clients.secrets);
    expect(ok).toBe(false);
    expect(rows.find((r) => r.check === 'grant password')?.fix).toMatch(/clientSecret/);
    expect(text).not.toContain('a-stale-client-secret');
  });

  it('names a secret that cannot be read', async () => {
    const { ok, rows } = await doctor(env('no-such-secret'), aws.clients.secrets);
    expect(ok).toBe(false);
    expect(rows[0]).toMatchObject({ check: 'settings', verdict: 'fail' });
    expect(rows[0]?.detail).toMatch(/CREDENTIALS_SECRET_ARN: cannot be read/);
  });
});
