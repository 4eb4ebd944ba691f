import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, type Emulator, expectProblem, type Json, start, token } from './helpers.js';

const NS_I = 'http://www.w3.org/2001/XMLSchema-instance';
// Values stay strings so the test, not the parser, decides what a number or boolean is.
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  trimValues: true,
});

let em: Emulator;
let tok: string;
let cart: string;
let standardCart: string;

beforeAll(async () => {
  em = await start();
  cart = em.info().carts.find((c) => c.type === 'reseller')?.vendorOrderCode ?? 'none';
  standardCart = em.info().carts.find((c) => c.type === 'standard')?.vendorOrderCode ?? 'none';
});
afterAll(() => em.close());
beforeEach(async () => {
  tok = await token(em);
});

const customers = () => `/api/ecom/shop/carts/${cart}/customers`;

function xmlCustomer(tag: string, c: Record<string, string | null>): string {
  const fields = Object.entries(c)
    .map(([k, v]) => (v === null ? `<${k} i:nil="true"/>` : `<${k}>${v}</${k}>`))
    .join('');
  return `<${tag}>${fields}</${tag}>`;
}

const SHIPPING = {
  FirstName: 'Alan',
  LastName: 'Turing',
  Address1: '2 Bletchley Park',
  Address2: null,
  City: 'Milton Keynes',
  PostalCode: 'MK3 6EB',
  State: '',
  Country: 'GB',
  CustomerEmail: 'alan@example.co.uk',
  CompanyName: 'Hut 8',
  CompanyTypeId: '3',
  ExternalCustomerKey: 'ext-8',
  OptIn: 'true',
};

describe('XML representation: cart customers (4.10)', () => {
  function postXml(body: string, accept = 'application/xml') {
    return call(em, customers(), {
      token: tok,
      method: 'POST',
      accept,
      headers: { 'Content-Type': 'application/xml' },
      body,
    });
  }

  const request = (shipping: Record<string, string | null>) =>
    `<?xml version="1.0" encoding="utf-8"?><AddCustomersToCartRequestServiceModel xmlns:i="${NS_I}">${xmlCustomer('Shipping', shipping)}</AddCustomersToCartRequestServiceModel>`;

  it('reads an XML request and answers AddCustomersToCartResponseServiceModel with i:nil for null', async () => {
    const res = await postXml(request(SHIPPING));
    const text = await res.text();
    expect(res.status, text.slice(0, 400)).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(XMLValidator.validate(text), 'well-formed XML').toBe(true);
    const root = (parser.parse(text) as Json).AddCustomersToCartResponseServiceModel as Json;
    expect(root, text.slice(0, 300)).toBeDefined();
    expect(root['@xmlns:i']).toBe(NS_I);
    const ship = root.Shipping as Json;
    expect(ship.FirstName).toBe('Alan');
    expect(ship.Country).toBe('GB');
    expect(ship.OptIn).toBe('true');
    expect(ship.CustomerTypeId).toBe('2');
    expect(ship.CustomerTypeDescription).toBe('Shipping');
    expect(ship.Address2).toEqual({ '@i:nil': 'true' });
    expect(ship).not.toHaveProperty('CompanyTypeId');
    expect((root.Billing as Json).CustomerTypeId).toBe('1');
  });

  it('reads a Reseller from XML for a reseller cart', async () => {
    const reseller = {
      ...SHIPPING,
      FirstName: 'Joan',
      CustomerEmail: 'joan@reseller.example',
      Address2: 'Unit 4',
    };
    const body = request(SHIPPING).replace(
      '</AddCustomersToCartRequestServiceModel>',
      `${xmlCustomer('Reseller', reseller)}</AddCustomersToCartRequestServiceModel>`,
    );
    const res = await postXml(body, 'application/json');
    expect(res.status).toBe(200);
    const answer = (await res.json()) as Json;
    expect(answer.Reseller).toMatchObject({
      FirstName: 'Joan',
      Address2: 'Unit 4',
      CustomerTypeId: 3,
      CustomerTypeDescription: 'Reseller',
      OptIn: true,
    });
    expect(answer.Reseller).not.toHaveProperty('CompanyTypeId');
  });

  const withReseller = (reseller: Record<string, string | null>) =>
    request(SHIPPING).replace(
      '</AddCustomersToCartRequestServiceModel>',
      `${xmlCustomer('Reseller', reseller)}</AddCustomersToCartRequestServiceModel>`,
    );
  const badReseller = { ...SHIPPING, Country: 'xx', CustomerEmail: 'nope', OptIn: 'maybe' };

  it('ignores an invalid XML Reseller on a cart that is not of type reseller', async () => {
    const res = await call(em, `/api/ecom/shop/carts/${standardCart}/customers`, {
      token: tok,
      method: 'POST',
      accept: 'application/xml',
      headers: { 'Content-Type': 'application/xml' },
      body: withReseller(badReseller),
    });
    const text = await res.text();
    expect(res.status, text.slice(0, 400)).toBe(200);
    const root = parser.parse(text).AddCustomersToCartResponseServiceModel as Json;
    expect(Object.keys(root).filter((k) => !k.startsWith('@'))).toEqual(['Billing', 'Shipping']);
  });

  it('still refuses an invalid XML Reseller on a reseller cart, naming its fields', async () => {
    const res = await postXml(withReseller(badReseller));
    const body = await expectProblem(res, 400, 'invalid_parameter', 'Reseller.Country');
    expect(Object.keys(body.errors as Json)).toEqual(
      expect.arrayContaining(['Reseller.CustomerEmail', 'Reseller.OptIn']),
    );
  });

  it('accepts text/xml; charset=utf-8 as the request type', async () => {
    const res = await call(em, customers(), {
      token: tok,
      method: 'POST',
      accept: 'application/json',
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: request(SHIPPING),
    });
    expect(res.status, await res.text()).toBe(200);
  });

  it('answers JSON to an XML request that accepts JSON, with Address2 null', async () => {
    const res = await postXml(request(SHIPPING), 'application/json');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect((body.Shipping as Json).Address2).toBeNull();
    expect((body.Shipping as Json).CompanyName).toBe('Hut 8');
    expect((body.Shipping as Json).OptIn).toBe(true);
  });

  it('reads an empty element as an empty value', async () => {
    const res = await postXml(
      request({ ...SHIPPING, Address2: '' }).replace('<Address2></Address2>', '<Address2/>'),
      'application/json',
    );
    expect(res.status).toBe(200);
    const address2 = ((await res.json()) as Json).Shipping as Json;
    expect([null, '']).toContain(address2.Address2);
  });

  it('answers an XML request with an invalid country with 400 naming Shipping.Country', async () => {
    const res = await postXml(request({ ...SHIPPING, Country: 'gbr' }), 'application/json');
    await expectProblem(res, 400, 'invalid_parameter', 'Shipping.Country');
  });

  it('answers malformed XML and a wrong root element with 400', async () => {
    await expectProblem(
      await postXml('<AddCustomersToCartRequestServiceModel><Shipping>', 'application/json'),
      400,
      'invalid_parameter',
    );
    const wrongRoot = request(SHIPPING).replaceAll(
      'AddCustomersToCartRequestServiceModel',
      'SomethingElse',
    );
    const res = await postXml(wrongRoot, 'application/json');
    expect(res.status).toBe(400);
  });

  it('answers 406 to a POST that accepts neither JSON nor XML', async () => {
    await expectProblem(await postXml(request(SHIPPING), 'text/html'), 406, 'not_acceptable');
  });

  it('answers XML to a JSON request that accepts XML', async () => {
    const shipping = { ...SHIPPING, CompanyTypeId: 3, OptIn: false };
    const res = await call(em, customers(), {
      token: tok,
      method: 'POST',
      accept: 'application/xml',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ Shipping: shipping }),
    });
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toContain('<AddCustomersToCartResponseServiceModel');
    expect(text).toMatch(/<Address2 i:nil="true"\s*\/>/);
  });
});
