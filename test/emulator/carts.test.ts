import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, type Emulator, expectProblem, type Json, start, token } from './helpers.js';

let em: Emulator;
let tok: string;
let standard: string;
let reseller: string;

beforeAll(async () => {
  em = await start();
  const carts = em.info().carts;
  standard = carts.find((c) => c.type === 'standard')?.vendorOrderCode ?? 'none';
  reseller = carts.find((c) => c.type === 'reseller')?.vendorOrderCode ?? 'none';
});
afterAll(() => em.close());
beforeEach(async () => {
  tok = await token(em, ['ECom.Shop']);
});

function customer(overrides: Json = {}): Json {
  return {
    FirstName: 'Grace',
    LastName: 'Hopper',
    Address1: '1 Compiler Road',
    Address2: null,
    City: 'Arlington',
    PostalCode: '22201',
    State: 'VA',
    Country: 'US',
    CustomerEmail: 'grace@example.com',
    CompanyName: 'COBOL Inc',
    CompanyTypeId: 2,
    ExternalCustomerKey: 'ext-42',
    OptIn: true,
    ...overrides,
  };
}

function post(cart: string, body: unknown, headers: Record<string, string> = {}) {
  return call(em, `/api/ecom/shop/carts/${encodeURIComponent(cart)}/customers`, {
    token: tok,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function postOk(cart: string, body: unknown): Promise<Json> {
  const res = await post(cart, body);
  const text = await res.text();
  expect(res.status, text.slice(0, 500)).toBe(200);
  return JSON.parse(text) as Json;
}

/** The request fields a response customer echoes (all but CompanyTypeId). */
function echoed(c: Json): Json {
  const { CompanyTypeId: _, ...rest } = c;
  return rest;
}

describe('Cart customers (4.10): success', () => {
  it('adds the Shipping customer and answers Billing (1) and Shipping (2)', async () => {
    const shipping = customer();
    const body = await postOk(standard, { Shipping: shipping });
    const billing = body.Billing as Json;
    const ship = body.Shipping as Json;
    expect(billing).toMatchObject({ CustomerTypeId: 1, CustomerTypeDescription: 'Billing' });
    expect(typeof billing.VatId).toBe('string');
    expect(ship).toMatchObject({
      ...echoed(shipping),
      CustomerTypeId: 2,
      CustomerTypeDescription: 'Shipping',
      VatId: '',
    });
    expect(ship).not.toHaveProperty('CompanyTypeId');
    expect(billing).not.toHaveProperty('CompanyTypeId');
    expect(body).not.toHaveProperty('Reseller');
    for (const f of [
      'FirstName',
      'LastName',
      'Address1',
      'City',
      'PostalCode',
      'Country',
      'CustomerEmail',
    ]) {
      expect(typeof billing[f], `Billing.${f}`).toBe('string');
    }
  });

  it('keeps the Reseller (3) of a reseller cart', async () => {
    const res = customer({
      FirstName: 'Rita',
      CustomerEmail: 'rita@reseller.example',
      Country: 'DE',
    });
    const body = await postOk(reseller, { Shipping: customer(), Reseller: res });
    expect(body.Reseller).toMatchObject({
      ...echoed(res),
      CustomerTypeId: 3,
      CustomerTypeDescription: 'Reseller',
      VatId: '',
    });
    expect((body.Shipping as Json).CustomerTypeId).toBe(2);
  });

  it('ignores the Reseller of a cart that is not of type reseller', async () => {
    const body = await postOk(standard, {
      Shipping: customer(),
      Reseller: customer({ FirstName: 'Ignored' }),
    });
    expect(body).not.toHaveProperty('Reseller');
  });

  it('never changes the Billing customer and replaces Shipping on a repeated POST', async () => {
    const first = await postOk(standard, { Shipping: customer({ FirstName: 'First' }) });
    const second = await postOk(standard, {
      Shipping: customer({ FirstName: 'Second', Country: 'FR' }),
    });
    expect(second.Billing).toEqual(first.Billing);
    expect((second.Shipping as Json).FirstName).toBe('Second');
    expect((second.Shipping as Json).Country).toBe('FR');
    const again = await postOk(standard, {
      Shipping: customer({ FirstName: 'Second', Country: 'FR' }),
    });
    expect(again).toEqual(second);
  });

  it('accepts only the required fields, defaulting OptIn to false, and ignores unknown fields', async () => {
    const minimal = {
      FirstName: 'Min',
      LastName: 'Imal',
      Address1: 'x',
      City: 'y',
      PostalCode: '1',
      Country: 'NL',
      CustomerEmail: 'min@example.nl',
      Surprise: 'ignored',
    };
    const body = await postOk(standard, { Shipping: minimal, AlsoUnknown: 1 });
    expect((body.Shipping as Json).OptIn).toBe(false);
    expect(body.Shipping).not.toHaveProperty('Surprise');
  });

  it('accepts the boundary values CompanyTypeId 0 and 256-character strings', async () => {
    const long = 'y'.repeat(256);
    const body = await postOk(standard, {
      Shipping: customer({ CompanyTypeId: 0, CompanyName: long }),
    });
    expect((body.Shipping as Json).CompanyName).toBe(long);
  });

  it('accepts application/json with a charset parameter', async () => {
    const res = await post(
      standard,
      { Shipping: customer() },
      { 'Content-Type': 'application/json; charset=utf-8' },
    );
    await res.arrayBuffer();
    expect(res.status).toBe(200);
  });

  it('stores and returns Address2 when given', async () => {
    const body = await postOk(standard, { Shipping: customer({ Address2: 'Suite 9' }) });
    expect((body.Shipping as Json).Address2).toBe('Suite 9');
  });
});

describe('Cart customers (4.10): request handling', () => {
  it('answers 404 for an unknown cart', async () => {
    await expectProblem(await post('SO-000000-0', { Shipping: customer() }), 404, 'not_found');
  });

  it('answers a malformed percent-encoded cart code with 400 or 404, never 500', async () => {
    const res = await call(em, '/api/ecom/shop/carts/%E0%A4%A/customers', {
      token: tok,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ Shipping: customer() }),
    });
    await res.arrayBuffer();
    expect([400, 404]).toContain(res.status);
  });

  it('answers 415 for a body that is neither JSON nor XML', async () => {
    const res = await post(standard, JSON.stringify({ Shipping: customer() }), {
      'Content-Type': 'text/plain',
    });
    await expectProblem(res, 415, 'unsupported_media_type');
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const big = { Shipping: customer(), Padding: 'x'.repeat(65 * 1024) };
    await expectProblem(await post(standard, big), 413, 'payload_too_large');
  });

  it('accepts a body just under 64 KiB', async () => {
    const base = JSON.stringify({ Shipping: customer(), Padding: '' });
    const body = JSON.stringify({
      Shipping: customer(),
      Padding: 'x'.repeat(64 * 1024 - base.length - 8),
    });
    const res = await post(standard, body);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
  });

  it('answers 405 for GET on the customers collection', async () => {
    const res = await call(em, `/api/ecom/shop/carts/${standard}/customers`, { token: tok });
    await expectProblem(res, 405, 'method_not_allowed');
  });
});
