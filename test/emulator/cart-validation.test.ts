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

describe('Cart customers (4.10): validation', () => {
  it('rejects a body without Shipping with 400 naming Shipping', async () => {
    await expectProblem(await post(standard, {}), 400, 'invalid_parameter', 'Shipping');
    await expectProblem(
      await post(standard, { Shipping: 'Grace' }),
      400,
      'invalid_parameter',
      'Shipping',
    );
  });

  it.each(['FirstName', 'LastName', 'Address1', 'City', 'PostalCode', 'Country', 'CustomerEmail'])(
    'rejects a Shipping without %s with 400 naming Shipping.<field>',
    async (field) => {
      const shipping = customer();
      delete shipping[field];
      await expectProblem(
        await post(standard, { Shipping: shipping }),
        400,
        'invalid_parameter',
        `Shipping.${field}`,
      );
    },
  );

  it.each([
    ['Country', 'us'],
    ['Country', 'USA'],
    ['Country', 'U1'],
    ['Country', 'JJ'],
    ['CustomerEmail', 'not-an-email'],
    ['CustomerEmail', 'a@b'],
    ['CustomerEmail', 'a b@example.com'],
    ['CompanyTypeId', 'two'],
    ['CompanyTypeId', -1],
    ['CompanyTypeId', 1.5],
    ['OptIn', 'yes'],
    ['FirstName', 42],
    ['Address2', 7],
    ['City', 'x'.repeat(257)],
  ])('rejects Shipping.%s = %j with 400 naming it', async (field, value) => {
    const res = await post(standard, { Shipping: customer({ [field]: value }) });
    await expectProblem(res, 400, 'invalid_parameter', `Shipping.${field}`);
  });

  it('lists every violation at once', async () => {
    const res = await post(reseller, {
      Shipping: customer({ Country: 'xx', CustomerEmail: 'nope' }),
      Reseller: customer({ OptIn: 'maybe' }),
    });
    const body = await expectProblem(res, 400, 'invalid_parameter');
    expect(Object.keys(body.errors as Json)).toEqual(
      expect.arrayContaining(['Shipping.Country', 'Shipping.CustomerEmail', 'Reseller.OptIn']),
    );
  });

  it.each([
    ['an invalid customer', customer({ Country: 'xx', CustomerEmail: 'nope', OptIn: 'maybe' })],
    ['a customer without any field', {}],
    ['a string', 'Reseller'],
    ['a list', [customer()]],
  ])('ignores a Reseller that is %s on a cart that is not of type reseller', async (_, value) => {
    const res = await post(standard, { Shipping: customer(), Reseller: value });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const body = JSON.parse(text) as Json;
    expect(body).not.toHaveProperty('Reseller');
    expect(Object.keys(body)).toEqual(['Billing', 'Shipping']);
  });

  it.each([
    ['an invalid customer', customer({ Country: 'xx' }), 'Reseller.Country'],
    ['a customer without any field', {}, 'Reseller.FirstName'],
    ['a string', 'Reseller', 'Reseller'],
  ])('still refuses a Reseller that is %s on a reseller cart', async (_, value, field) => {
    const res = await post(reseller, { Shipping: customer(), Reseller: value });
    await expectProblem(res, 400, 'invalid_parameter', field);
  });

  it.each(['null', '[]', '"Shipping"'])('rejects the JSON body %s with 400', async (raw) => {
    await expectProblem(await post(standard, raw), 400, 'invalid_parameter');
  });

  it('rejects malformed JSON with 400', async () => {
    await expectProblem(await post(standard, '{"Shipping": {'), 400, 'invalid_parameter');
  });
});
