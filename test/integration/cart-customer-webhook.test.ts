import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../functions/cart-customer-webhook/signature.js';
import { type Product, startProduct } from '../support/product.js';

let product: Product;
let carts: { vendorOrderCode: string; type: string }[];
beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  carts = product.emulator.info().carts;
});
afterAll(async () => product?.close());

const customer = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address1: '12 St James Square',
  address2: null,
  city: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'GB',
  email: 'ada@example.com',
  optIn: true,
};

interface Response {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

function delivery(
  body: string,
  options: { key?: string; at?: number; secret?: string; type?: string } = {},
) {
  const at = options.at ?? Math.floor(Date.now() / 1000);
  return {
    requestContext: { http: { method: 'POST' } },
    headers: {
      'content-type': options.type ?? 'application/json',
      'skywatch-signature': sign(options.secret ?? product.webhookSecret, at, body),
      ...(options.key ? { 'idempotency-key': options.key } : {}),
    },
    body,
    isBase64Encoded: false,
  };
}

/** The same delivery with its body as bytes, base64-encoded as API Gateway passes binary bodies. */
function encodedDelivery(bytes: Buffer, signedOver: string | Buffer = bytes) {
  const at = Math.floor(Date.now() / 1000);
  return {
    requestContext: { http: { method: 'POST' } },
    headers: {
      'content-type': 'application/json',
      'skywatch-signature': sign(product.webhookSecret, at, signedOver),
    },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  };
}

async function send(body: string, options?: Parameters<typeof delivery>[1]) {
  const res = await product.run<Response>('cart-customer-webhook', delivery(body, options));
  return { ...res, json: JSON.parse(res.body) as Record<string, unknown> };
}

const cartCalls = () => product.emulator.stats().byOperation['cart.customers'] ?? 0;

describe('Function: cart-customer-webhook', () => {
  it('attaches the shipping customer and answers with the service customers', async () => {
    const cart = carts.find((c) => c.type === 'standard')?.vendorOrderCode ?? '';
    const res = await send(JSON.stringify({ vendorOrderCode: cart, shipping: customer }), {
      key: 'k-accept',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json.customers).toMatchObject({
      Billing: { CustomerTypeId: 1 },
      Shipping: { CustomerTypeId: 2, FirstName: 'Ada', Country: 'GB', Address2: null },
    });
  });

  it('does not post twice when a delivery is retried with the same idempotency key', async () => {
    const cart = carts.find((c) => c.type === 'reseller')?.vendorOrderCode ?? '';
    const body = JSON.stringify({
      vendorOrderCode: cart,
      shipping: customer,
      reseller: { ...customer, firstName: 'Res' },
    });
    const calls = cartCalls();
    const first = await send(body, { key: 'k-retry' });
    const second = await send(body, { key: 'k-retry' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(cartCalls() - calls).toBe(1);
    expect(first.json.customers).toMatchObject({
      Reseller: { CustomerTypeId: 3, FirstName: 'Res' },
    });
  });

  it('replays an identical signed delivery without an Idempotency-Key instead of posting twice', async () => {
    const cart = carts.find((c) => c.type === 'standard')?.vendorOrderCode ?? '';
    const body = JSON.stringify({ vendorOrderCode: cart, shipping: { ...customer, city: 'Bath' } });
    const calls = cartCalls();
    const event = delivery(body);
    const first = await product.run<Response>('cart-customer-webhook', event);
    const again = await product.run<Response>('cart-customer-webhook', event);
    expect(first.statusCode).toBe(200);
    expect(again).toMatchObject({ statusCode: 200, body: first.body });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(cartCalls() - calls).toBe(1);
    // The signature is the key: the same body signed at another second is another delivery.
    const resigned = await send(body, { at: Math.floor(Date.now() / 1000) - 5 });
    expect(resigned.statusCode).toBe(200);
    expect(resigned.headers['idempotent-replayed']).toBeUndefined();
    expect(cartCalls() - calls).toBe(2);
  });

  it('verifies base64-encoded bodies over their raw bytes, multi-byte characters included', async () => {
    const cart = carts.find((c) => c.type === 'standard')?.vendorOrderCode ?? '';
    const body = JSON.stringify({
      vendorOrderCode: cart,
      shipping: { ...customer, firstName: 'Zoë 😀', city: 'Zürich' },
    });
    const res = await product.run<Response>(
      'cart-customer-webhook',
      encodedDelivery(Buffer.from(body, 'utf8')),
    );
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).customers.Shipping).toMatchObject({
      FirstName: 'Zoë 😀',
      City: 'Zürich',
    });
  });

  it('refuses a signed body that is not UTF-8 as such, naming the body, without calling the service', async () => {
    const calls = cartCalls();
    const head = Buffer.from('{"vendorOrderCode":"SO-1","shipping":{"city":"', 'utf8');
    const bytes = Buffer.concat([head, Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}}')]);
    const signed = await product.run<Response>('cart-customer-webhook', encodedDelivery(bytes));
    expect(signed.statusCode).toBe(400);
    expect(JSON.parse(signed.body)).toMatchObject({ error: 'invalid_encoding', field: '(body)' });
    // Signed over the text a lenient decoder makes of those bytes, it is not what was sent.
    const lossy = await product.run<Response>(
      'cart-customer-webhook',
      encodedDelivery(bytes, bytes.toString('utf8')),
    );
    expect(JSON.parse(lossy.body)).toMatchObject({ error: 'signature_mismatch' });
    expect(cartCalls()).toBe(calls);
  });

  it('refuses bad signatures, expired ones and replays outside the window, before calling the service', async () => {
    const body = JSON.stringify({ vendorOrderCode: carts[0]?.vendorOrderCode, shipping: customer });
    const calls = cartCalls();
    const wrong = await send(body, { secret: 'not-the-right-secret-at-all' });
    const old = await send(body, { at: Math.floor(Date.now() / 1000) - 3600 });
    const unsigned = await product.run<Response>('cart-customer-webhook', {
      ...delivery(body),
      headers: { 'content-type': 'application/json' },
    });
    expect([wrong.statusCode, old.statusCode, unsigned.statusCode]).toEqual([401, 401, 401]);
    expect(wrong.json.error).toBe('signature_mismatch');
    expect(old.json.error).toBe('signature_expired');
    expect(JSON.parse(unsigned.body).error).toBe('signature_missing');
    expect(cartCalls()).toBe(calls);
  });

  it('names the field at fault for malformed and invalid bodies', async () => {
    const notJson = await send('{"vendorOrderCode": ');
    expect(notJson).toMatchObject({
      statusCode: 400,
      json: { error: 'malformed_json', field: '(body)' },
    });
    const badCountry = await send(
      JSON.stringify({ vendorOrderCode: 'SO-1', shipping: { ...customer, country: 'gb' } }),
    );
    expect(badCountry).toMatchObject({ statusCode: 400, json: { field: 'shipping.country' } });
    const missing = await send(JSON.stringify({ vendorOrderCode: 'SO-1' }));
    expect(missing).toMatchObject({ statusCode: 400, json: { field: 'shipping' } });
    const extra = await send(
      JSON.stringify({ vendorOrderCode: 'SO-1', shipping: customer, coupon: 'X' }),
    );
    expect(extra.statusCode).toBe(400);
  });

  it('refuses oversized bodies and other methods and media types', async () => {
    const big = JSON.stringify({
      vendorOrderCode: 'SO-1',
      shipping: { ...customer, city: 'x'.repeat(40_000) },
    });
    expect(await send(big)).toMatchObject({
      statusCode: 413,
      json: { error: 'payload_too_large', field: '(body)' },
    });
    expect(await send('{}', { type: 'text/plain' })).toMatchObject({
      statusCode: 415,
      json: { error: 'unsupported_media_type', field: 'Content-Type' },
    });
    const get = await product.run<Response>('cart-customer-webhook', {
      ...delivery('{}'),
      requestContext: { http: { method: 'GET' } },
    });
    expect(get.statusCode).toBe(405);
  });

  it('maps an unknown cart to 404 and upstream failures to 502/503, never 500', async () => {
    const unknown = await send(
      JSON.stringify({ vendorOrderCode: 'SO-NOPE-1', shipping: customer }),
      { key: 'k-404' },
    );
    expect(unknown).toMatchObject({ statusCode: 404, json: { error: 'cart_not_found' } });
    product.emulator.setFaults([
      { operation: 'cart.customers', kind: 'status', status: 502, count: 10 },
    ]);
    const body = JSON.stringify({ vendorOrderCode: carts[0]?.vendorOrderCode, shipping: customer });
    const failed = await send(body, { key: 'k-502' });
    product.emulator.setFaults([]);
    expect(failed).toMatchObject({ statusCode: 502, json: { error: 'upstream_error' } });
    // The claim was released, so the caller's retry goes through.
    expect((await send(body, { key: 'k-502' })).statusCode).toBe(200);
  });
});
