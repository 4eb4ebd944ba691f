import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';
import { signed } from '../support/webhook-signing.js';
import {
  type Answered,
  type Refused,
  refusedDelivery,
  validRequest,
} from './support/webhook-requests.js';

interface Response {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

let product: Product;
let cart: string;
const answered: Answered = { id: 'msg_answered_once', body: '' };
beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  cart = product.emulator.info().carts[0]?.vendorOrderCode ?? '';
  // A delivery answered before the corpus runs, whose id the corpus then reuses.
  answered.body = JSON.stringify(fc.sample(validRequest(cart), { numRuns: 1, seed: 7 })[0]);
  const first = await deliver(
    answered.body,
    signed(product.webhookSecret, answered.body, answered),
  );
  expect(first.statusCode).toBe(200);
});
afterAll(async () => product?.close());

const deliver = (body: string, headers: Record<string, string>, contentType = 'application/json') =>
  product.run<Response>('cart-customer-webhook', {
    requestContext: { http: { method: 'POST' } },
    headers: { 'content-type': contentType, ...headers },
    body,
    isBase64Encoded: false,
  });

describe('Webhook fuzz: malformed, unsigned, replayed, re-keyed and oversized deliveries', () => {
  it('answers every one with a 4xx naming the problem, never a replay, and never calls the service', async () => {
    const before = product.emulator.stats();
    const seen = new Map<string, number>();
    const statuses = new Map<number, number>();
    let replays = 0;
    await fc.assert(
      fc.asyncProperty(
        refusedDelivery(product.webhookSecret, cart, Date.now, answered),
        async (r: Refused) => {
          seen.set(r.category, (seen.get(r.category) ?? 0) + 1);
          const res = await deliver(r.body, r.headers, r.contentType);
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          if (res.headers['idempotent-replayed'] !== undefined) replays++;
          const json = JSON.parse(res.body) as { error?: string; message?: string; field?: string };
          expect(res.headers['content-type']).toBe('application/json');
          expect({ status: res.statusCode, error: json.error }).toEqual({
            status: r.status,
            error: r.error,
          });
          expect(json.message).toEqual(expect.any(String));
          // Short whatever the delivery: the answer is also the log line.
          expect(res.body.length).toBeLessThan(1000);
          if (r.field !== undefined) {
            expect(json.field).toBe(r.field);
            if (r.status === 400) expect(json.message?.startsWith(`${r.field}: `)).toBe(true);
          }
          if (r.mentions !== undefined) expect(json.message).toContain(r.mentions);
        },
      ),
      { numRuns: 800, seed: 20_260_301, endOnFailure: true },
    );
    const after = product.emulator.stats();
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    console.info(
      `reliability figures (webhook fuzz): ${JSON.stringify({
        deliveries: total,
        byCategory: Object.fromEntries(seen),
        byStatus: Object.fromEntries(statuses),
        serviceRequests: after.requests - before.requests,
        replays,
      })}`,
    );
    expect(replays).toBe(0);
    expect(total).toBeGreaterThanOrEqual(500);
    expect([...seen.keys()].sort()).toEqual(
      [
        'bad country',
        'bad email',
        'bad media type',
        'dot path',
        'invisible name',
        'malformed id',
        'malformed json',
        'malformed signature',
        'malformed timestamp',
        'many unknown keys',
        'missing field',
        'missing shipping',
        'oversized',
        're-keyed',
        'replayed',
        'reused id',
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
    const res = await deliver(body, signed(product.webhookSecret, body));
    expect(res.statusCode).toBe(200);
    expect(product.emulator.stats().byOperation['cart.customers']).toBe(before + 1);
  });
});
