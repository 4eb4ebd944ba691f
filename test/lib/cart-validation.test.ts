import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CustomerInput,
  userAgent,
  ValidationError,
  VERSION,
  validateCartRequest,
} from '../../lib/index.js';

const good: CustomerInput = {
  FirstName: 'Ada',
  LastName: 'Hopper',
  Address1: '1 Main St',
  City: 'Springfield',
  PostalCode: '50284',
  Country: 'US',
  CustomerEmail: 'ada@example.com',
};

function failure(body: unknown): ValidationError {
  try {
    validateCartRequest(body as never);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('Function: validateCartRequest', () => {
  it('accepts a complete Shipping customer with optional fields and unknown extras', () => {
    expect(() => validateCartRequest({ Shipping: good })).not.toThrow();
    expect(() =>
      validateCartRequest({
        Shipping: { ...good, Address2: null, OptIn: true, CompanyTypeId: 2, Extra: 1 },
        Reseller: good,
      }),
    ).not.toThrow();
  });

  it('requires Shipping and each required field, naming the path', () => {
    expect(failure({}).field).toBe('Shipping');
    for (const key of [
      'FirstName',
      'LastName',
      'Address1',
      'City',
      'PostalCode',
      'Country',
      'CustomerEmail',
    ] as const) {
      const { [key]: _gone, ...rest } = good;
      const err = failure({ Shipping: rest });
      expect(err.field).toBe(`Shipping.${key}`);
      expect(err.rule).toBe('is required');
    }
  });

  it('checks country code, e-mail, types and lengths', () => {
    expect(failure({ Shipping: { ...good, Country: 'us' } }).field).toBe('Shipping.Country');
    expect(failure({ Shipping: { ...good, Country: 'USA' } }).rule).toMatch(/ISO 3166-1 alpha-2/);
    // Shape alone is not enough: JJ is not an assigned code, EU is a grouping.
    expect(failure({ Shipping: { ...good, Country: 'JJ' } }).field).toBe('Shipping.Country');
    expect(failure({ Shipping: { ...good, Country: 'EU' } }).field).toBe('Shipping.Country');
    expect(failure({ Shipping: good, Reseller: { ...good, CustomerEmail: 'nope' } }).field).toBe(
      'Reseller.CustomerEmail',
    );
    expect(failure({ Shipping: { ...good, OptIn: 'yes' } }).field).toBe('Shipping.OptIn');
    expect(failure({ Shipping: { ...good, CompanyTypeId: 1.5 } }).field).toBe(
      'Shipping.CompanyTypeId',
    );
    expect(failure({ Shipping: { ...good, City: 'x'.repeat(257) } }).field).toBe('Shipping.City');
  });

  it('accepts every ordinary e-mail address', () => {
    fc.assert(
      fc.property(
        fc.emailAddress().filter((e) => e.length <= 256),
        (email) => {
          expect(() =>
            validateCartRequest({ Shipping: { ...good, CustomerEmail: email } }),
          ).not.toThrow();
        },
      ),
    );
  });

  it('rejects an e-mail without @, with a blank, or without a dotted domain', () => {
    const broken = fc.oneof(
      fc.emailAddress().map((e) => e.replace('@', '')),
      fc
        .tuple(fc.emailAddress(), fc.nat(), fc.constantFrom(' ', '\t', '\n'))
        .map(([e, n, blank]) => {
          const at = n % e.length;
          return `${e.slice(0, at)}${blank}${e.slice(at)}`;
        }),
      fc.emailAddress().map((e) => `${e.slice(0, e.indexOf('@') + 1)}localhost`),
      fc.emailAddress().map((e) => e.slice(0, e.indexOf('@'))),
    );
    fc.assert(
      fc.property(broken, fc.boolean(), (email, reseller) => {
        const body = reseller
          ? { Shipping: good, Reseller: { ...good, CustomerEmail: email } }
          : { Shipping: { ...good, CustomerEmail: email } };
        const err = failure(body);
        expect(err.field).toBe(`${reseller ? 'Reseller' : 'Shipping'}.CustomerEmail`);
      }),
    );
  });

  it('rejects every country that is not two upper-case letters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 4 }), (country) => {
        fc.pre(!/^[A-Z]{2}$/.test(country));
        expect(failure({ Shipping: { ...good, Country: country } }).field).toBe('Shipping.Country');
      }),
    );
  });
});

describe('Function: userAgent', () => {
  it('names Skywatch, its version and node, with an optional suffix', () => {
    expect(userAgent()).toBe(
      `Skywatch/${VERSION} (+https://github.com/skywatch) node/${process.version}`,
    );
    expect(userAgent('report-fetcher')).toMatch(
      new RegExp(` node/v\\d+\\.\\d+\\.\\d+ report-fetcher/${VERSION.replaceAll('.', '\\.')}$`),
    );
    // Every product token outside the comment is a name/version pair, as the service asks.
    const tokens = userAgent('token-refresher custom/2.1')
      .replace(/\([^)]*\)/g, '')
      .split(/\s+/)
      .filter(Boolean);
    expect(tokens.every((t) => /^[\w.-]+\/[\w.-]+$/.test(t))).toBe(true);
    expect(tokens).toContain('custom/2.1');
  });
});
