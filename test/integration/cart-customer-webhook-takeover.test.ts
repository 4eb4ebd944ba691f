import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payloadDigest, recordKey } from '../../functions/cart-customer-webhook/idempotency.js';
import { StateStore } from '../../lib/aws/index.js';
import { type AwsGate, s3PutContaining, startAwsGate } from '../support/aws-gate.js';
import { type Product, startProduct } from '../support/product.js';
import { signed } from '../support/webhook-signing.js';

/**
 * A delivery whose Lambda died, or could not store its answer, after the service took the
 * customers: its claim on the idempotency key stays pending. Retries hear 409 until the claim
 * is older than the takeover window, then one of them takes it over. The answer's S3 write goes
 * through a gate that can refuse it or hold it (the Lambda frozen right after 4.10).
 */
let product: Product;
let gate: AwsGate;
let state: StateStore;
let cart: string;

beforeAll(async () => {
  product = await startProduct();
  gate = await startAwsGate(product.aws.moto.endpoint, s3PutContaining('"state":"done"'));
  // Before any handler is loaded: they read their endpoint once, when first imported.
  process.env.AWS_ENDPOINT_URL = gate.endpoint;
  state = new StateStore(product.aws.clients.s3, product.res.bucket);
  await product.run('token-refresher');
  cart = product.emulator.info().carts.find((c) => c.type === 'standard')?.vendorOrderCode ?? '';
});
afterAll(async () => {
  await gate?.close();
  await product?.close();
});

interface Response {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

const customer = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: '12 St James Square',
  city: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'GB',
  email: 'ada@example.com',
};

const bodyOf = () => JSON.stringify({ vendorOrderCode: cart, shipping: customer });

/** A delivery of webhook-id `key`, signed anew each time as a sender's retry is. */
function send(key: string): Promise<Response> {
  const body = bodyOf();
  return product.run<Response>('cart-customer-webhook', {
    requestContext: { http: { method: 'POST' } },
    headers: {
      'content-type': 'application/json',
      ...signed(product.webhookSecret, body, { id: key }),
    },
    body,
    isBase64Encoded: false,
  });
}

const cartCalls = () => product.emulator.stats().byOperation['cart.customers'] ?? 0;

/** Dates the pending claim an hour back, as the clock would after the takeover window. */
async function outliveWindow(key: string, claim: Record<string, unknown> = {}) {
  const claimedAt = new Date(Date.now() - 3_600_000).toISOString();
  const digest = payloadDigest(Buffer.from(bodyOf()));
  await state.put(recordKey('webhook-id', key), { state: 'pending', claimedAt, digest, ...claim });
}

describe('Function: cart-customer-webhook, abandoned idempotency claims', () => {
  it('answers 200 when the answer cannot be stored, then 409 naming the key until the window passes', async () => {
    const calls = cartCalls();
    gate.mode('fail');
    const first = await send('k-unstored');
    gate.mode('pass');
    expect(first.statusCode).toBe(200);

    const retry = await send('k-unstored');
    expect(retry.statusCode).toBe(409);
    expect(JSON.parse(retry.body)).toMatchObject({
      error: 'in_progress',
      field: 'webhook-id',
    });
    expect(cartCalls() - calls).toBe(1);

    await outliveWindow('k-unstored');
    const takeover = await send('k-unstored');
    expect(takeover.statusCode).toBe(200);
    expect(takeover.headers['idempotent-replayed']).toBeUndefined();
    const replay = await send('k-unstored');
    expect(replay).toMatchObject({ statusCode: 200, body: takeover.body });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(cartCalls() - calls).toBe(2);
  });

  it('lets one retry take over from a Lambda frozen after the service call, and keeps its answer', async () => {
    const calls = cartCalls();
    gate.mode('hold');
    const frozen = send('k-frozen');
    await gate.held();
    gate.mode('pass');
    expect((await send('k-frozen')).statusCode).toBe(409);

    await outliveWindow('k-frozen');
    const [a, b] = await Promise.all([send('k-frozen'), send('k-frozen')]);
    // One retry took the claim over; the other found it fresh again, or already answered.
    const fresh = [a, b].filter(
      (r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined,
    );
    expect(fresh).toHaveLength(1);
    const other = fresh[0] === a ? b : a;
    expect(other.statusCode === 409 || other.headers['idempotent-replayed'] === 'true').toBe(true);
    expect(cartCalls() - calls).toBe(2);
    const stored = await product.objects(`state/${recordKey('webhook-id', 'k-frozen')}`);

    // The frozen Lambda wakes and tries to store its answer over a claim no longer its own.
    gate.forwardHeld();
    expect((await frozen).statusCode).toBe(200);
    expect(await product.objects(`state/${recordKey('webhook-id', 'k-frozen')}`)).toEqual(stored);
    expect((await send('k-frozen')).headers['idempotent-replayed']).toBe('true');
    expect(cartCalls() - calls).toBe(2);
  });

  it('never takes over a pending claim for another payload: 422 naming the id', async () => {
    const calls = cartCalls();
    await outliveWindow('k-other', { digest: payloadDigest(Buffer.from('{"another":"payload"}')) });
    const res = await send('k-other');
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body)).toMatchObject({
      error: 'idempotency_key_reused',
      field: 'webhook-id',
      message: expect.stringContaining('"k-other"'),
    });
    expect(cartCalls()).toBe(calls);
  });
});
