import { describe, expect, it } from 'vitest';
import { fromUpstream, json, replayed } from '../../functions/cart-customer-webhook/responses.js';
import { HttpError } from '../../lib/index.js';

const URL_4_10 = 'https://service.example/api/ecom/shop/carts/SO-1/customers';

describe('Function: fromUpstream', () => {
  it('names the parameter the service refused, as the service names it', () => {
    // Prepare
    const refused = new HttpError(400, 'POST', URL_4_10, {
      title: 'One or more validation errors occurred.',
      errors: { 'Shipping.CustomerEmail': ['must be an e-mail address'], 'Shipping.City': ['x'] },
    });
    // Act
    const res = fromUpstream(refused);
    // Assess
    expect(res.statusCode).toBe(422);
    expect(JSON.parse(res.body)).toMatchObject({
      error: 'rejected_by_service',
      field: 'Shipping.CustomerEmail',
    });
  });

  it('names the whole body when the service names no parameter', () => {
    const res = fromUpstream(new HttpError(400, 'POST', URL_4_10, { title: 'Bad Request' }));
    expect(JSON.parse(res.body)).toMatchObject({ error: 'rejected_by_service', field: '(body)' });
    const bare = fromUpstream(new HttpError(400, 'POST', URL_4_10, undefined));
    expect(JSON.parse(bare.body).field).toBe('(body)');
  });
});

describe('Function: replayed', () => {
  it('gives a stored answer with the headers of the first answer, marked as a replay', () => {
    // Prepare
    const first = json(200, { vendorOrderCode: 'SO-1', customers: {} });
    // Act
    const again = replayed({ statusCode: first.statusCode, body: first.body });
    // Assess
    expect(again.headers).toEqual({ ...first.headers, 'idempotent-replayed': 'true' });
    expect(again.headers['cache-control']).toBe('no-store');
    expect(again.body).toBe(first.body);
  });
});
