import { randomBytes } from 'node:crypto';
import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateSigningSecret } from '../../lib/webhooks/index.js';
import { demoCredentials } from '../../scripts/local/function-env.js';
import { type Product, startProduct } from '../support/product.js';
import { customer, webhookDeliveries } from './support/webhook-deliveries.js';

/**
 * Faults in the webhook's fields of the credentials secret (docs/operations.md) stay with the
 * webhook: it answers `503 not_configured` naming the field, and the token refresher, which
 * reads the same secret, runs on. Each case writes the secret to moto, then runs the functions
 * as cold starts, so no cached value of an earlier case helps them.
 */
let product: Product;
let w: ReturnType<typeof webhookDeliveries>;

beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  w = webhookDeliveries(product);
});
afterAll(async () => product?.close());

/** The demo credentials with the webhook's fields overridden, and every function cold. */
async function configure(fields: Record<string, string>): Promise<void> {
  await product.aws.clients.secrets.send(
    new PutSecretValueCommand({
      SecretId: product.res.credentialsSecretArn,
      SecretString: JSON.stringify({ ...demoCredentials(product.webhookSecret), ...fields }),
    }),
  );
  vi.resetModules();
}

const delivery = () =>
  w.delivery(JSON.stringify({ vendorOrderCode: w.cartOf('standard'), shipping: customer }));

async function notConfigured(): Promise<string> {
  const calls = w.cartCalls();
  const res = await w.run(delivery());
  expect(res.statusCode).toBe(503);
  expect(res.headers['cache-control']).toBe('no-store');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(body.error).toBe('not_configured');
  expect(w.cartCalls()).toBe(calls);
  return String(body.message);
}

/** The refresher reads the credentials secret for every refresh, and for the password grant. */
async function refresherRunsOn(): Promise<void> {
  expect((await product.run<{ action: string }>('token-refresher')).action).toBe('refreshed');
  product.emulator.revokeTokens();
  expect((await product.run<{ action: string }>('token-refresher')).action).toBe('recovered');
}

describe('Function: cart-customer-webhook, configuration faults', () => {
  it('answers 503 not_configured naming an empty webhookSigningSecret; the refresher runs on', async () => {
    await configure({ webhookSigningSecret: '' });
    expect(await notConfigured()).toMatch(/^webhookSigningSecret is empty: it must be whsec_/);
    await refresherRunsOn();
  });

  it('reads an empty webhookSigningSecretPrevious as none: the current secret verifies, others not', async () => {
    await configure({ webhookSigningSecretPrevious: '' });
    expect((await w.run(delivery())).statusCode).toBe(200);
    const stranger = await w.send(
      JSON.stringify({ vendorOrderCode: w.cartOf('standard'), shipping: customer }),
      { secret: generateSigningSecret() },
    );
    expect(stranger).toMatchObject({ statusCode: 401, json: { error: 'signature_mismatch' } });
    await refresherRunsOn();
  });

  it('refuses the old 48-character hex secret, in either field, saying so and not echoing it', async () => {
    const hex = randomBytes(24).toString('hex');
    for (const [fields, field] of [
      [{ webhookSigningSecret: hex }, 'webhookSigningSecret'],
      [{ webhookSigningSecretPrevious: hex }, 'webhookSigningSecretPrevious'],
    ] as const) {
      await configure(fields);
      const message = await notConfigured();
      expect(message).toMatch(
        new RegExp(`^${field} holds hexadecimal digits only, like the old Skywatch-Signature`),
      );
      expect(message).toContain('echo "whsec_$(openssl rand -base64 32)"');
      expect(message).not.toContain(hex);
      await refresherRunsOn();
    }
  });

  it('answers again once operators correct the secret', async () => {
    await configure({});
    expect((await w.run(delivery())).statusCode).toBe(200);
  });
});
