import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../functions/cart-customer-webhook/signature.js';
import { type Product, startProduct } from '../support/product.js';
import {
  type Refused,
  refusedDelivery,
  SIGNATURE,
  validRequest,
} from './support/webhook-requests.js';

interface Response {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

let product: Product;
let cart: string;
beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  cart = product.emulator.info().carts[0]?.vendorOrderCode ?? '';
});
afterAll(async () => product?.close());

const deliver = (body: string, signature: string | undefined) =>
  product.run<Response>('cart-customer-webhook', {
    requestContext: { http: { method: 'POST' } },
    headers: {
      'content-type': 'application/json',
      ...(signature === undefined ? {} : { [SIGNATURE]: signature }),
    },
    body,
    isBase64Encoded: false,
  });

describe('Webhook fuzz: malformed, unsigned, replayed and oversized deliveries', () => {
  it('answers every one with a 4xx naming the problem, and never calls the service', async () => {
    const before = product.emulator.stats();
    const seen = new Map<string, number>();
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        refusedDelivery(product.webhookSecret, cart, Date.now),
        async (r: Refused) => {
          seen.set(r.category, (seen.get(r.category) ?? 0) + 1);
          const res = await deliver(r.body, r.signature);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          const json = JSON.parse(res.body) as { error?: string; message?: string; field?: string };
          expect(res.headers['content-type']).toBe('application/json');
          expect({ status: res.statusCode, error: json.error }).toEqual({
            status: r.status,
            error: r.error,
          });
          expect(json.message).toEqual(expect.any(String));
          if (r.field !== undefined) {
            expect(json.field).toBe(r.field);
            if (r.status === 400) expect(json.message?.startsWith(`${r.field}: `)).toBe(true);
          }
          if (r.mentions !== undefined) expect(json.message).toContain(r.mentions);
        },
      ),
      { numRuns: 600, seed: 20_260_301, endOnFailure: true },
    );
    const after = product.emulator.stats();
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    console.info(
      `reliability figures (webhook fuzz): ${JSON.stringify({
        deliveries: total,
        byCategory: Object.fromEntries(seen),
        byStatus: Object.fromEntries(statuses),
        serviceRequests: after.requests - before.requests,
      })}`,
    );
    expect(total).toBeGreaterThanOrEqual(500);
    expect([...seen.keys()].sort()).toEqual(
      [
        'bad country',
        'bad email',
        'malformed json',
        'malformed signature',
        'missing field',
        'missing shipping',
        'oversized',
        'replayed',
        'tampered body',
        'unknown field',
        'unsigned',
        'wrong secret',
        'wrong type',
      ].sort(),
    );
    expect([...statuses.keys()].every((s) => s >= 400 && s < 500)).toBe(true);
    expect(after.byOperation['cart.customers'] ?? 0).toBe(
      before.byOperation['cart.customers'] ?? 0,
    );
    // Not even a token: nothing at all reached the service.
    expect(after.requests).toBe(before.requests);
  });

  it('does call the service for a valid delivery (so the counters above can move)', async () => {
    const before = product.emulator.stats().byOperation['cart.customers'] ?? 0;
    const body = JSON.stringify(fc.sample(validRequest(cart), { numRuns: 1, seed: 1 })[0]);
    const res = await deliver(
      body,
      sign(product.webhookSecret, Math.floor(Date.now() / 1000), body),
    );
    expect(res.statusCode).toBe(200);
    expect(product.emulator.stats().byOperation['cart.customers']).toBe(before + 1);
  });
});
