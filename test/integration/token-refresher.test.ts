import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { refreshTokens } from '../../functions/token-refresher/refresh.js';
import { SecretStore } from '../../lib/aws/index.js';
import { demoCredentials } from '../../scripts/local/function-env.js';
import { type Product, startProduct } from '../support/product.js';

let product: Product;
beforeAll(async () => {
  product = await startProduct();
});
afterAll(async () => product?.close());

async function refreshGrant(refreshToken: string) {
  const form = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken });
  const res = await fetch(product.emulator.tokenUrl, {
    method: 'POST',
    body: form,
    headers: {
      authorization: `Basic ${Buffer.from('skywatch-demo:demo-client-secret').toString('base64')}`,
      'user-agent': 'test',
    },
  });
  return { status: res.status, body: (await res.json()) as { error?: string } };
}

describe('Function: token-refresher', () => {
  it('bootstraps an empty token secret with the password grant', async () => {
    const out = await product.run<{ action: string; scopes: string[] }>('token-refresher');
    expect(out.action).toBe('bootstrapped');
    expect(out.scopes).toEqual(
      expect.arrayContaining(['SkyStatus.GSM', 'ECom.Shop', product.emulator.baseUrl]),
    );
    expect((await product.tokenSecret()).accessToken).toMatch(/.{20,}/);
  });

  it('rotates: the saved refresh token is new and the old one is dead', async () => {
    const before = await product.tokenSecret();
    expect((await product.run<{ action: string }>('token-refresher')).action).toBe('refreshed');
    const after = await product.tokenSecret();
    expect(after.refreshToken).not.toBe(before.refreshToken);
    expect(after.accessToken).not.toBe(before.accessToken);
    // The emulator revokes a family when a dead token is replayed; probe with a throwaway copy.
    expect((await refreshGrant(`${before.refreshToken}x`)).body.error).toBe('invalid_grant');
  });

  it('uses no password grant after bootstrap under normal operation', async () => {
    product.emulator.resetStats();
    for (let i = 0; i < 3; i++) await product.run('token-refresher');
    expect(product.emulator.stats().tokenGrants).toMatchObject({ password: 0, refresh_token: 3 });
  });

  it('recovers from a dead refresh token with the password grant, and says so', async () => {
    product.emulator.revokeTokens();
    product.emulator.resetStats();
    expect((await product.run<{ action: string }>('token-refresher')).action).toBe('recovered');
    expect(product.emulator.stats().tokenGrants).toMatchObject({
      password: 1,
      refresh_token: 0,
      failed: 1,
    });
    // The recovered pair works: the next run refreshes normally.
    expect((await product.run<{ action: string }>('token-refresher')).action).toBe('refreshed');
  });

  it('skips a token that is still fresh when told to refresh only near expiry', async () => {
    const secrets = new SecretStore(product.aws.clients.secrets);
    const settings = {
      baseUrl: product.emulator.baseUrl,
      authUrl: product.emulator.authUrl,
      credentialsSecretArn: product.res.credentialsSecretArn,
      tokenSecretArn: product.res.tokenSecretArn,
    };
    const before = await product.tokenSecret();
    expect((await refreshTokens(secrets, { ...settings, refreshAheadMs: 60_000 })).action).toBe(
      'skipped',
    );
    expect((await product.tokenSecret()).refreshToken).toBe(before.refreshToken);
    expect((await refreshTokens(secrets, { ...settings, refreshAheadMs: 330_000 })).action).toBe(
      'refreshed',
    );
  });

  it('runs normally when the webhook fields of the credentials secret are empty or malformed', async () => {
    // Prepare: faults only the webhook reads (docs/operations.md), and a cold refresher
    const put = (fields: Record<string, unknown>) =>
      product.aws.clients.secrets.send(
        new PutSecretValueCommand({
          SecretId: product.res.credentialsSecretArn,
          SecretString: JSON.stringify({ ...demoCredentials(product.webhookSecret), ...fields }),
        }),
      );
    for (const fields of [
      { webhookSigningSecret: '', webhookSigningSecretPrevious: '' },
      { webhookSigningSecret: 'ab'.repeat(24), webhookSigningSecretPrevious: 42 },
    ]) {
      await put(fields);
      vi.resetModules();
      // Act & Assess: a refresh grant, then the password grant, both from this secret
      expect((await product.run<{ action: string }>('token-refresher')).action).toBe('refreshed');
      product.emulator.revokeTokens();
      expect((await product.run<{ action: string }>('token-refresher')).action).toBe('recovered');
    }
    await put({});
  });
});
