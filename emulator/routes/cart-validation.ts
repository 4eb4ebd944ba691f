import type { Cart, StoredCustomer } from '../data/carts.js';
import { isCountryCode } from '../data/countries.js';
import { invalidFields } from '../http/problem.js';

/**
 * Customer record rules of 4.10. The spec only says Shipping is required; which fields are is
 * our documented choice (docs/service-choices.md). Every violation is reported at once.
 */

const REQUIRED = [
  'FirstName',
  'LastName',
  'Address1',
  'City',
  'PostalCode',
  'Country',
  'CustomerEmail',
];
const OPTIONAL_STRINGS = ['State', 'CompanyName', 'ExternalCustomerKey'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MAX_LENGTH = 256;

type Errors = Record<string, string[]>;

function add(errors: Errors, path: string, rule: string): void {
  errors[path] ??= [];
  errors[path].push(rule);
}

/** XML carries text only; numbers and booleans arrive as strings and are read per field type. */
function asInteger(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
}
function asBoolean(value: unknown): unknown {
  return value === 'true' ? true : value === 'false' ? false : value;
}

export function validateCustomer(
  value: unknown,
  path: string,
  errors: Errors,
  fromXml: boolean,
): StoredCustomer | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    add(errors, path, 'must be a customer object');
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const before = Object.keys(errors).length;
  const text = (name: string, required: boolean): string => {
    const v = record[name];
    if (v === undefined || v === null || v === '') {
      if (required) add(errors, `${path}.${name}`, 'is required');
      return '';
    }
    if (typeof v !== 'string') add(errors, `${path}.${name}`, 'must be a string');
    else if (v.length > MAX_LENGTH)
      add(errors, `${path}.${name}`, `must be at most ${MAX_LENGTH} characters`);
    return typeof v === 'string' ? v : '';
  };
  for (const name of [...REQUIRED, ...OPTIONAL_STRINGS]) text(name, REQUIRED.includes(name));
  const country = record.Country;
  if (typeof country === 'string' && country !== '' && !isCountryCode(country)) {
    add(errors, `${path}.Country`, 'must be an ISO 3166-1 alpha-2 country code in upper case');
  }
  const email = record.CustomerEmail;
  if (typeof email === 'string' && email !== '' && !EMAIL.test(email)) {
    add(errors, `${path}.CustomerEmail`, 'must be an e-mail address');
  }
  const address2 = record.Address2;
  if (address2 !== undefined && address2 !== null && typeof address2 !== 'string') {
    add(errors, `${path}.Address2`, 'must be a string or null');
  }
  const companyType = fromXml ? asInteger(record.CompanyTypeId) : record.CompanyTypeId;
  if (
    companyType !== undefined &&
    companyType !== null &&
    !(Number.isInteger(companyType) && (companyType as number) >= 0)
  ) {
    add(errors, `${path}.CompanyTypeId`, 'must be a non-negative integer');
  }
  const optIn = fromXml ? asBoolean(record.OptIn) : record.OptIn;
  if (optIn !== undefined && optIn !== null && typeof optIn !== 'boolean') {
    add(errors, `${path}.OptIn`, 'must be true or false');
  }
  if (Object.keys(errors).length > before) return undefined;
  const s = (name: string) => (typeof record[name] === 'string' ? (record[name] as string) : '');
  return {
    FirstName: s('FirstName'),
    LastName: s('LastName'),
    Address1: s('Address1'),
    Address2: typeof address2 === 'string' ? address2 : null,
    City: s('City'),
    PostalCode: s('PostalCode'),
    State: s('State'),
    Country: s('Country'),
    CustomerEmail: s('CustomerEmail'),
    CompanyName: s('CompanyName'),
    ExternalCustomerKey: s('ExternalCustomerKey'),
    OptIn: optIn === true,
    VatId: '',
  };
}

/**
 * The request model: Shipping required, Reseller optional. Reseller is read only for a reseller
 * cart; for any other cart the spec says it is ignored, so it is not even validated there.
 * Throws a 400 listing every fault.
 */
export function validateCartRequest(body: unknown, fromXml: boolean, cartType: Cart['type']) {
  const errors: Errors = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidFields({ body: ['must be an AddCustomersToCartRequestServiceModel object'] });
  }
  const request = body as Record<string, unknown>;
  let shipping: StoredCustomer | undefined;
  if (request.Shipping === undefined || request.Shipping === null)
    add(errors, 'Shipping', 'is required');
  else shipping = validateCustomer(request.Shipping, 'Shipping', errors, fromXml);
  const reseller =
    cartType !== 'reseller' || request.Reseller === undefined || request.Reseller === null
      ? undefined
      : validateCustomer(request.Reseller, 'Reseller', errors, fromXml);
  if (Object.keys(errors).length > 0 || !shipping) throw invalidFields(errors);
  return { shipping, reseller };
}
