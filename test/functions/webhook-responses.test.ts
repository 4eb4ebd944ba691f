import { describe, expect, it } from 'vitest';
import { fromUpstream } from '../../functions/cart-customer-webhook/responses.js';
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
