import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';
import { customer, webhookDeliveries } from './support/webhook-deliveries.js';

let product: Product;
let carts: { vendorOrderCode: string; type: string }[];
let w: ReturnType<typeof webhookDeliveries>;
beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  carts = product.emulator.info().carts;
  w = webhookDeliveries(product);
});
afterAll(async () => product?.close());

describe('Function: cart-customer-webhook', () => {
  it('attaches the shipping customer and answers with the service customers', async () => {
    const res = await w.send(
      JSON.stringify({ vendorOrderCode: w.cartOf('standard'), shipping: customer }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json.customers).toMatchObject({
      Billing: { CustomerTypeId: 1 },
      Shipping: { CustomerTypeId: 2, FirstName: 'Ada', Country: 'GB', Address2: null },
    });
  });

  it('posts once when a sender retries: same webhook-id, signed again at a later second', async () => {
    const body = JSON.stringify({
      vendorOrderCode: w.cartOf('reseller'),
      shipping: customer,
      reseller: { ...customer, firstName: 'Res' },
    });
    const calls = w.cartCalls();
    const now = Math.floor(Date.now() / 1000);
    const first = await w.send(body, { id: 'msg_retry', at: now - 10 });
    const second = await w.send(body, { id: 'msg_retry', at: now });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    // The same personal data, so the same headers: no cache may keep the replay either.
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers).toEqual({ ...first.headers, 'idempotent-replayed': 'true' });
    expect(w.cartCalls() - calls).toBe(1);
    expect(first.json.customers).toMatchObject({
      Reseller: { CustomerTypeId: 3, FirstName: 'Res' },
    });
  });

  it('answers 422 naming the id when a webhook-id comes back with another payload, never a replay', async () => {
    const cartA = w.cartOf('standard', 1);
    const cartB = w.cartOf('standard', 0);
    const calls = w.cartCalls();
    const a = await w.send(JSON.stringify({ vendorOrderCode: cartA, shipping: customer }), {
      id: 'msg_K',
    });
    expect(a.statusCode).toBe(200);
    // Another cart under the same id, and the same cart with another Shipping customer.
    for (const body of [
      { vendorOrderCode: cartB, shipping: customer },
      { vendorOrderCode: cartA, shipping: { ...customer, city: 'Leeds' } },
    ]) {
      const b = await w.send(JSON.stringify(body), { id: 'msg_K' });
      expect(b.statusCode).toBe(422);
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect(b.json).toMatchObject({ error: 'idempotency_key_reused', field: 'webhook-id' });
      expect(b.json.message).toContain('"msg_K"');
    }
    expect(w.cartCalls() - calls).toBe(1);
  });

  it('signs the id: a captured delivery sent again under a new id, or none, is refused', async () => {
    const body = JSON.stringify({ vendorOrderCode: w.cartOf('standard'), shipping: customer });
    const captured = w.delivery(body, { id: 'msg_captured' });
    const calls = w.cartCalls();
    expect((await w.run(captured)).statusCode).toBe(200);
    const rekeyed = await w.run({
      ...captured,
      headers: { ...captured.headers, 'webhook-id': 'msg_new_key' },
    });
    expect(rekeyed.statusCode).toBe(401);
    expect(JSON.parse(rekeyed.body)).toMatchObject({ error: 'signature_mismatch' });
    const { 'webhook-id': _dropped, ...keyless } = captured.headers;
    const unkeyed = await w.run({ ...captured, headers: keyless });
    expect(JSON.parse(unkeyed.body)).toMatchObject({
      error: 'signature_missing',
      field: 'webhook-id',
    });
    expect(w.cartCalls() - calls).toBe(1);
  });

  it("reads no Idempotency-Key: one equal to another delivery's signature shares nothing with it", async () => {
    const first = w.delivery(
      JSON.stringify({ vendorOrderCode: w.cartOf('standard', 0), shipping: customer }),
    );
    const calls = w.cartCalls();
    expect((await w.run(first)).statusCode).toBe(200);
    const other = await w.send(
      JSON.stringify({ vendorOrderCode: w.cartOf('standard', 1), shipping: customer }),
      { extra: { 'idempotency-key': first.headers['webhook-signature'] ?? '' } },
    );
    expect(other.statusCode).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json.vendorOrderCode).toBe(w.cartOf('standard', 1));
    expect(w.cartCalls() - calls).toBe(2);
  });

  it('makes exactly one service call for 20 concurrent identical deliveries', async () => {
    const event = w.delivery(
      JSON.stringify({
        vendorOrderCode: w.cartOf('standard'),
        shipping: { ...customer, city: 'York' },
      }),
    );
    const calls = w.cartCalls();
    const answers = await Promise.all(Array.from({ length: 20 }, () => w.run(event)));
    expect(w.cartCalls() - calls).toBe(1);
    const fresh = answers.filter((r) => r.statusCode === 200 && !r.headers['idempotent-replayed']);
    expect(fresh).toHaveLength(1);
    for (const r of answers) {
      if (r === fresh[0]) continue;
      if (r.statusCode === 200) expect(r.body).toBe(fresh[0]?.body);
      else expect(JSON.parse(r.body)).toMatchObject({ error: 'in_progress', field: 'webhook-id' });
    }
  });

  it('accepts a matching v1 signature among several, wherever it stands', async () => {
    const body = JSON.stringify({ vendorOrderCode: w.cartOf('standard'), shipping: customer });
    const event = w.delivery(body);
    const decoy = `v1,${Buffer.alloc(32, 7).toString('base64')}`;
    const good = event.headers['webhook-signature'];
    const last = await w.run({
      ...event,
      headers: { ...event.headers, 'webhook-signature': `${decoy} ${good}` },
    });
    expect(last.statusCode).toBe(200);
    const event2 = w.delivery(body);
    const before = await w.run({
      ...event2,
      headers: {
        ...event2.headers,
        'webhook-signature': `${event2.headers['webhook-signature']} ${decoy}`,
      },
    });
    expect(before.statusCode).toBe(200);
  });

  it('verifies base64-encoded bodies over their raw bytes, multi-byte characters included', async () => {
    const body = JSON.stringify({
      vendorOrderCode: w.cartOf('standard'),
      shipping: { ...customer, firstName: 'Zoë 😀', city: 'Zürich' },
    });
    const res = await w.run(w.encodedDelivery(Buffer.from(body, 'utf8')));
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).customers.Shipping).toMatchObject({
      FirstName: 'Zoë 😀',
      City: 'Zürich',
    });
  });

  it('refuses a signed body that is not UTF-8 as such, naming the body, without calling the service', async () => {
    const calls = w.cartCalls();
    const head = Buffer.from('{"vendorOrderCode":"SO-1","shipping":{"city":"', 'utf8');
    const bytes = Buffer.concat([head, Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]);
    const res = await w.run(w.encodedDelivery(bytes));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_encoding', field: '(body)' });
    // Signed over the text a lenient decoder makes of those bytes, it is not what was sent.
    const lossy = await w.run(w.encodedDelivery(bytes, bytes.toString('utf8')));
    expect(JSON.parse(lossy.body)).toMatchObject({ error: 'signature_mismatch' });
    expect(w.cartCalls()).toBe(calls);
  });

  it('refuses bad signatures, expired ones and replays outside the window, before calling the service', async () => {
    const body = JSON.stringify({ vendorOrderCode: carts[0]?.vendorOrderCode, shipping: customer });
    const calls = w.cartCalls();
    const wrong = await w.send(body, { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` });
    const old = await w.send(body, { at: Math.floor(Date.now() / 1000) - 3600 });
    const unsigned = await w.run({
      ...w.delivery(body),
      headers: { 'content-type': 'application/json' },
    });
    expect([wrong.statusCode, old.statusCode, unsigned.statusCode]).toEqual([401, 401, 401]);
    expect(wrong.json).toMatchObject({ error: 'signature_mismatch', field: 'webhook-signature' });
    expect(old.json).toMatchObject({ error: 'signature_expired', field: 'webhook-timestamp' });
    expect(JSON.parse(unsigned.body).error).toBe('signature_missing');
    expect(w.cartCalls()).toBe(calls);
  });

  it('refuses a signature whose last base64 character has an unused bit changed', async () => {
    // Prepare: HMAC-SHA256 is 32 bytes, so the character before "=" carries 2 unused bits
    const event = w.delivery(
      JSON.stringify({ vendorOrderCode: w.cartOf('standard'), shipping: customer }),
    );
    const signature = event.headers['webhook-signature'] ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const last = signature.length - 2;
    const flipped = `${signature.slice(0, last)}${alphabet[alphabet.indexOf(signature.charAt(last)) ^ 1]}=`;
    expect(Buffer.from(flipped.slice(3), 'base64')).toEqual(
      Buffer.from(signature.slice(3), 'base64'),
    );
    const calls = w.cartCalls();
    // Act
    const res = await w.run({
      ...event,
      headers: { ...event.headers, 'webhook-signature': flipped },
    });
    // Assess
    expect(res.statusCode).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({
      error: 'signature_mismatch',
      field: 'webhook-signature',
    });
    expect(w.cartCalls()).toBe(calls);
    expect((await w.run(event)).statusCode).toBe(200);
  });

  it('maps an unknown cart to 404 and upstream failures to 502/503, never 500', async () => {
    const unknown = await w.send(
      JSON.stringify({ vendorOrderCode: 'SO-NOPE-1', shipping: customer }),
    );
    expect(unknown).toMatchObject({ statusCode: 404, json: { error: 'cart_not_found' } });
    product.emulator.setFaults([
      { operation: 'cart.customers', kind: 'status', status: 502, count: 10 },
    ]);
    const body = JSON.stringify({ vendorOrderCode: carts[0]?.vendorOrderCode, shipping: customer });
    const failed = await w.send(body, { id: 'msg_502' });
    product.emulator.setFaults([]);
    expect(failed).toMatchObject({ statusCode: 502, json: { error: 'upstream_error' } });
    // The claim was released, so the sender's retry goes through.
    expect((await w.send(body, { id: 'msg_502' })).statusCode).toBe(200);
  });
});
