import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Product, startProduct } from '../support/product.js';
import { customer, webhookDeliveries } from './support/webhook-deliveries.js';

let product: Product;
let w: ReturnType<typeof webhookDeliveries>;
beforeAll(async () => {
  product = await startProduct();
  await product.run('token-refresher');
  w = webhookDeliveries(product);
});
afterAll(async () => product?.close());

describe('Function: cart-customer-webhook, refused input', () => {
  it('names the field at fault for malformed and invalid bodies', async () => {
    const notJson = await w.send('{"vendorOrderCode": ');
    expect(notJson).toMatchObject({
      statusCode: 400,
      json: { error: 'malformed_json', field: '(body)' },
    });
    const badCountry = await w.send(
      JSON.stringify({ vendorOrderCode: 'SO-1', shipping: { ...customer, country: 'gb' } }),
    );
    expect(badCountry).toMatchObject({ statusCode: 400, json: { field: 'shipping.country' } });
    const missing = await w.send(JSON.stringify({ vendorOrderCode: 'SO-1' }));
    expect(missing).toMatchObject({ statusCode: 400, json: { field: 'shipping' } });
    const extra = await w.send(
      JSON.stringify({ vendorOrderCode: 'SO-1', shipping: customer, coupon: 'X' }),
    );
    expect(extra.statusCode).toBe(400);
  });

  it('refuses a vendorOrderCode of "." or "..", which would post off the cart', async () => {
    const calls = w.cartCalls();
    for (const code of ['.', '..']) {
      const res = await w.send(JSON.stringify({ vendorOrderCode: code, shipping: customer }));
      expect(res).toMatchObject({ statusCode: 400, json: { field: 'vendorOrderCode' } });
    }
    expect(w.cartCalls()).toBe(calls);
  });

  it('refuses withdrawn, reserved and pseudo country codes', async () => {
    const calls = w.cartCalls();
    for (const country of ['UK', 'DD', 'SU', 'YU', 'ZR', 'CS', 'TP', 'AN', 'XA', 'XB', 'XK']) {
      const res = await w.send(
        JSON.stringify({
          vendorOrderCode: w.cartOf('standard'),
          shipping: { ...customer, country },
        }),
      );
      expect({ country, ...res }).toMatchObject({
        country,
        statusCode: 400,
        json: { field: 'shipping.country' },
      });
    }
    expect(w.cartCalls()).toBe(calls);
  });

  it('refuses names made only of invisible characters', async () => {
    for (const firstName of ['\u200b', '\u3164\u3164', '\u2800', '\u200d\ufeff ']) {
      const res = await w.send(
        JSON.stringify({
          vendorOrderCode: w.cartOf('standard'),
          shipping: { ...customer, firstName },
        }),
      );
      expect(res).toMatchObject({ statusCode: 400, json: { field: 'shipping.firstName' } });
    }
  });

  it('caps the refusal of thousands of unknown keys: a few named, the rest counted', async () => {
    const junk = Object.fromEntries(Array.from({ length: 2500 }, (_, i) => [`k${i}`, 1]));
    const res = await w.send(
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
    expect(await w.send(big)).toMatchObject({
      statusCode: 413,
      json: { error: 'payload_too_large', field: '(body)' },
    });
    const body = JSON.stringify({ vendorOrderCode: w.cartOf('standard'), shipping: customer });
    for (const type of [
      'text/plain',
      'application/json-patch+json',
      'application/json; charset=utf-16',
      'application/jsonx',
      'application/json; charset=latin1',
    ]) {
      expect({ type, ...(await w.send(body, { type })) }).toMatchObject({
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
      expect({ type, status: (await w.send(body, { type })).statusCode }).toEqual({
        type,
        status: 200,
      });
    }
    const get = await w.run({ ...w.delivery('{}'), requestContext: { http: { method: 'GET' } } });
    expect(get.statusCode).toBe(405);
  });
});
