import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';
import { signed } from '../support/webhook-signing.js';

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

interface DeliveryOptions {
  /** The webhook-id; a fresh one when not given. */
  id?: string;
  at?: number;
  secret?: string;
  type?: string;
  extra?: Record<string, string>;
}

function delivery(body: string, options: DeliveryOptions = {}) {
  const headers: Record<string, string> = {
    'content-type': options.type ?? 'application/json',
    ...signed(options.secret ?? product.webhookSecret, body, options),
    ...options.extra,
  };
  return { requestContext: { http: { method: 'POST' } }, headers, body, isBase64Encoded: false };
}

/** The same delivery with its body as bytes, base64-encoded as API Gateway passes binary bodies. */
function encodedDelivery(bytes: Buffer, signedOver: string | Buffer = bytes) {
  return {
    requestContext: { http: { method: 'POST' } },
    headers: { 'content-type': 'application/json', ...signed(product.webhookSecret, signedOver) },
    body: bytes.toString('base64'),
    isBase64Encoded: true,
  };
}

const run = (event: unknown) => product.run<Response>('cart-customer-webhook', event);

async function send(body: string, options?: DeliveryOptions) {
  const res = await run(delivery(body, options));
  return { ...res, json: JSON.parse(res.body) as Record<string, unknown> };
}

const cartCalls = () => product.emulator.stats().byOperation['cart.customers'] ?? 0;
const cartOf = (type: string, n = 0) =>
  carts.filter((c) => c.type === type)[n]?.vendorOrderCode ?? '';

describe('Function: cart-customer-webhook', () => {
  it('attaches the shipping customer and answers with the service customers', async () => {
    const res = await send(
      JSON.stringify({ vendorOrderCode: cartOf('standard'), shipping: customer }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json.customers).toMatchObject({
      Billing: { CustomerTypeId: 1 },
      Shipping: { CustomerTypeId: 2, FirstName: 'Ada', Country: 'GB', Address2: null },
    });
  });

  it('posts once when a sender retries: same webhook-id, signed again at a later second', async () => {
    const body = JSON.stringify({
      vendorOrderCode: cartOf('reseller'),
      shipping: customer,
      reseller: { ...customer, firstName: 'Res' },
    });
    const calls = cartCalls();
    const now = Math.floor(Date.now() / 1000);
    const first = await send(body, { id: 'msg_retry', at: now - 10 });
    const second = await send(body, { id: 'msg_retry', at: now });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(cartCalls() - calls).toBe(1);
    expect(first.json.customers).toMatchObject({
      Reseller: { CustomerTypeId: 3, FirstName: 'Res' },
    });
  });

  it('answers 422 naming the id when a webhook-id comes back with another payload, never a replay', async () => {
    const cartA = cartOf('standard', 1);
    const cartB = cartOf('standard', 0);
    const calls = cartCalls();
    const a = await send(JSON.stringify({ vendorOrderCode: cartA, shipping: customer }), {
      id: 'msg_K',
    });
    expect(a.statusCode).toBe(200);
    // Another cart under the same id, and the same cart with another Shipping customer.
    for (const body of [
      { vendorOrderCode: cartB, shipping: customer },
      { vendorOrderCode: cartA, shipping: { ...customer, city: 'Leeds' } },
    ]) {
      const b = await send(JSON.stringify(body), { id: 'msg_K' });
      expect(b.statusCode).toBe(422);
      expect(b.headers['idempotent-replayed']).toBeUndefined();
      expect(b.json).toMatchObject({ error: 'idempotency_key_reused', field: 'webhook-id' });
      expect(b.json.message).toContain('"msg_K"');
    }
    expect(cartCalls() - calls).toBe(1);
  });

  it('signs the id: a captured delivery sent again under a new id, or none, is refused', async () => {
    const body = JSON.stringify({ vendorOrderCode: cartOf('standard'), shipping: customer });
    const captured = delivery(body, { id: 'msg_captured' });
    const calls = cartCalls();
    expect((await run(captured)).statusCode).toBe(200);
    const rekeyed = await run({
      ...captured,
      headers: { ...captured.headers, 'webhook-id': 'msg_new_key' },
    });
    expect(rekeyed.statusCode).toBe(401);
    expect(JSON.parse(rekeyed.body)).toMatchObject({ error: 'signature_mismatch' });
    const { 'webhook-id': _dropped, ...keyless } = captured.headers;
    const unkeyed = await run({ ...captured, headers: keyless });
    expect(JSON.parse(unkeyed.body)).toMatchObject({
      error: 'signature_missing',
      field: 'webhook-id',
    });
    expect(cartCalls() - calls).toBe(1);
  });

  it("reads no Idempotency-Key: one equal to another delivery's signature shares nothing with it", async () => {
    const first = delivery(
      JSON.stringify({ vendorOrderCode: cartOf('standard', 0), shipping: customer }),
    );
    const calls = cartCalls();
    expect((await run(first)).statusCode).toBe(200);
    const other = await send(
      JSON.stringify({ vendorOrderCode: cartOf('standard', 1), shipping: customer }),
      { extra: { 'idempotency-key': first.headers['webhook-signature'] ?? '' } },
    );
    expect(other.statusCode).toBe(200);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.json.vendorOrderCode).toBe(cartOf('standard', 1));
    expect(cartCalls() - calls).toBe(2);
  });

  it('makes exactly one service call for 20 concurrent identical deliveries', async () => {
    const event = delivery(
      JSON.stringify({
        vendorOrderCode: cartOf('standard'),
        shipping: { ...customer, city: 'York' },
      }),
    );
    const calls = cartCalls();
    const answers = await Promise.all(Array.from({ length: 20 }, () => run(event)));
    expect(cartCalls() - calls).toBe(1);
    const fresh = answers.filter((r) => r.statusCode === 200 && !r.headers['idempotent-replayed']);
    expect(fresh).toHaveLength(1);
    for (const r of answers) {
      if (r === fresh[0]) continue;
      if (r.statusCode === 200) expect(r.body).toBe(fresh[0]?.body);
      else expect(JSON.parse(r.body)).toMatchObject({ error: 'in_progress', field: 'webhook-id' });
    }
  });

  it('accepts a matching v1 signature among several, wherever it stands', async () => {
    const body = JSON.stringify({ vendorOrderCode: cartOf('standard'), shipping: customer });
    const event = delivery(body);
    const decoy = `v1,${Buffer.alloc(32, 7).toString('base64')}`;
    const good = event.headers['webhook-signature'];
    const last = await run({
      ...event,
      headers: { ...event.headers, 'webhook-signature': `${decoy} ${good}` },
    });
    expect(last.statusCode).toBe(200);
    const event2 = delivery(body);
    const before = await run({
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
      vendorOrderCode: cartOf('standard'),
      shipping: { ...customer, firstName: 'Zoë 😀', city: 'Zürich' },
    });
    const res = await run(encodedDelivery(Buffer.from(body, 'utf8')));
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
    const res = await run(encodedDelivery(bytes));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ error: 'invalid_encoding', field: '(body)' });
    // Signed over the text a lenient decoder makes of those bytes, it is not what was sent.
    const lossy = await run(encodedDelivery(bytes, bytes.toString('utf8')));
    expect(JSON.parse(lossy.body)).toMatchObject({ error: 'signature_mismatch' });
    expect(cartCalls()).toBe(calls);
  });

  it('refuses bad signatures, expired ones and replays outside the window, before calling the service', async () => {
    const body = JSON.stringify({ vendorOrderCode: carts[0]?.vendorOrderCode, shipping: customer });
    const calls = cartCalls();
    const wrong = await send(body, { secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` });
    const old = await send(body, { at: Math.floor(Date.now() / 1000) - 3600 });
    const unsigned = await run({
      ...delivery(body),
      headers: { 'content-type': 'application/json' },
    });
    expect([wrong.statusCode, old.statusCode, unsigned.statusCode]).toEqual([401, 401, 401]);
    expect(wrong.json).toMatchObject({ error: 'signature_mismatch', field: 'webhook-signature' });
    expect(old.json).toMatchObject({ error: 'signature_expired', field: 'webhook-timestamp' });
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

  it('refuses a vendorOrderCode of "." or "..", which would post off the cart', async () => {
    const calls = cartCalls();
    for (const code of ['.', '..']) {
      const res = await send(JSON.stringify({ vendorOrderCode: code, shipping: customer }));
      expect(res).toMatchObject({ statusCode: 400, json: { field: 'vendorOrderCode' } });
    }
    expect(cartCalls()).toBe(calls);
  });

  it('refuses withdrawn, reserved and pseudo country codes', async () => {
    const calls = cartCalls();
    for (const country of ['UK', 'DD', 'SU', 'YU', 'ZR', 'CS', 'TP', 'AN', 'XA', 'XB', 'XK']) {
      const res = await send(
        JSON.stringify({ vendorOrderCode: cartOf('standard'), shipping: { ...customer, country } }),
      );
      expect({ country, ...res }).toMatchObject({
        country,
        statusCode: 400,
        json: { field: 'shipping.country' },
      });
    }
    expect(cartCalls()).toBe(calls);
  });

  it('refuses names made only of invisible characters', async () => {
    for (const firstName of ['\u200b', '\u3164\u3164', '\u2800', '\u200d\ufeff ']) {
      const res = await send(
        JSON.stringify({
          vendorOrderCode: cartOf('standard'),
          shipping: { ...customer, firstName },
        }),
      );
      expect(res).toMatchObject({ statusCode: 400, json: { field: 'shipping.firstName' } });
    }
  });

  it('caps the refusal of thousands of unknown keys: a few named, the rest counted', async () => {
    const junk = Object.fromEntries(Array.from({ length: 2500 }, (_, i) => [`k${i}`, 1]));
    const res = await send(
      JSON.stringify({ vendorOrderCode: 'SO-1', shipping: customer, ...junk }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json.message).toMatch(/unknown keys "k0", .* and 2495 more$/);
    expect(res.body.length).toBeLessThan(400);
  });

  it('refuses oversized bodies, other methods, and media types other than application/json (utf-8)', async () => {
    const big = JSON.stringify({
      vendorOrderCode: 'SO-1',
      shipping: { ...customer, city: 'x'.repeat(40_000) },
    });
    expect(await send(big)).toMatchObject({
      statusCode: 413,
      json: { error: 'payload_too_large', field: '(body)' },
    });
    const body = JSON.stringify({ vendorOrderCode: cartOf('standard'), shipping: customer });
    for (const type of [
      'text/plain',
      'application/json-patch+json',
      'application/json; charset=utf-16',
      'application/jsonx',
      'application/json; charset=latin1',
    ]) {
      expect({ type, ...(await send(body, { type })) }).toMatchObject({
        type,
        statusCode: 415,
        json: { error: 'unsupported_media_type', field: 'Content-Type' },
      });
    }
    for (const type of [
      'application/json',
      'Application/JSON; Charset=UTF-8',
      'application/json;charset="utf-8"',
    ]) {
      expect({ type, status: (await send(body, { type })).statusCode }).toEqual({
        type,
        status: 200,
      });
    }
    const get = await run({ ...delivery('{}'), requestContext: { http: { method: 'GET' } } });
    expect(get.statusCode).toBe(405);
  });

  it('maps an unknown cart to 404 and upstream failures to 502/503, never 500', async () => {
    const unknown = await send(
      JSON.stringify({ vendorOrderCode: 'SO-NOPE-1', shipping: customer }),
    );
    expect(unknown).toMatchObject({ statusCode: 404, json: { error: 'cart_not_found' } });
    product.emulator.setFaults([
      { operation: 'cart.customers', kind: 'status', status: 502, count: 10 },
    ]);
    const body = JSON.stringify({ vendorOrderCode: carts[0]?.vendorOrderCode, shipping: customer });
    const failed = await send(body, { id: 'msg_502' });
    product.emulator.setFaults([]);
    expect(failed).toMatchObject({ statusCode: 502, json: { error: 'upstream_error' } });
    // The claim was released, so the sender's retry goes through.
    expect((await send(body, { id: 'msg_502' })).statusCode).toBe(200);
  });
});
