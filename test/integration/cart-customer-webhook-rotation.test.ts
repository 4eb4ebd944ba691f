import { PutSecretValueCommand } from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSigningSecret } from '../../lib/webhooks/index.js';
import { demoCredentials } from '../../scripts/local/function-env.js';
import { type Product, startProduct } from '../support/product.js';
import { signed } from '../support/webhook-signing.js';

/**
 * A signing-secret rotation as docs/operations.md describes it: the credentials secret holds the
 * new secret and the previous one, and deliveries signed with either, or both, go through.
 */
let product: Product;
const next = generateSigningSecret();
const stranger = generateSigningSecret();
let cart: string;

beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  cart = product.emulator.info().carts.find((c) => c.type === 'standard')?.vendorOrderCode ?? '';
  // Before the webhook first runs, so its cache of the secret starts with the rotation.
  await product.aws.clients.secrets.send(
    new PutSecretValueCommand({
      SecretId: product.res.credentialsSecretArn,
      SecretString: JSON.stringify({
        ...demoCredentials(next),
        webhookSigningSecretPrevious: product.webhookSecret,
      }),
    }),
  );
});
afterAll(async () => product?.close());

interface Response {
  statusCode: number;
  body: string;
}

function send(secrets: string[]): Promise<Response> {
  const body = JSON.stringify({
    vendorOrderCode: cart,
    shipping: {
      firstName: 'Ada',
      lastName: 'Lovelace',
      address1: '12 St James Square',
      city: 'London',
      postalCode: 'SW1Y 4JH',
      country: 'GB',
      email: 'ada@example.com',
    },
  });
  return product.run<Response>('cart-customer-webhook', {
    requestContext: { http: { method: 'POST' } },
    headers: { 'content-type': 'application/json', ...signed(secrets, body) },
    body,
    isBase64Encoded: false,
  });
}

describe('Function: cart-customer-webhook, signing-secret rotation', () => {
  it('accepts the new secret, the previous one, and both at once', async () => {
    expect((await send([product.webhookSecret])).statusCode).toBe(200);
    expect((await send([next])).statusCode).toBe(200);
    expect((await send([product.webhookSecret, next])).statusCode).toBe(200);
  });

  it('refuses any other secret', async () => {
    const res = await send([stranger]);
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'signature_mismatch' });
  });
});
